#!/usr/bin/env python3
"""Writes Sources/widget-server/hot-functions.order: the functions the live server runs for a
pointer move, a ping and the frame clock's ticks, in the order it calls them, which release links
lay side by side (Package.swift; docs/BENCHMARKS.md, "Input → frame").

How: a release widget-server (its debug info stripped, which valgrind 3.19 cannot read) runs under
callgrind, collecting only inside lws_service, while widget-load's latency probe drags the ruler
scene's ruler (`run --clients 1 --script drag`) and then 20 clients fling it (`--script
ruler-fling`). The profile's call graph is walked from lws_service, depth first, each caller's
callees in the order the profile lists them, over calls made at least --least times: what runs
for every move or tick, not what ran once at start. Loopback only; each run is bounded in time and
stops by itself.

--check BINARY only reports how many of the listed functions BINARY has, and how many of those
stand in the listed order (a stale list names functions that no longer exist).

Needs valgrind (make hot-functions installs it). The next release build links with the new list:
SwiftPM does not see the file change, so this removes the linked binaries that use it.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDER = os.path.join(ROOT, "Sources", "widget-server", "hot-functions.order")
RELEASE = os.path.join(ROOT, ".build", "release")


def run(*args, **kw):
    print("+", " ".join(args), flush=True)
    subprocess.run(args, check=True, cwd=ROOT, **kw)


def profile(out_dir):
    """The callgrind profile of a release server under the probe's drag and a fling."""
    for product in ("widget-server", "widget-load"):
        run("swift", "build", "-c", "release", "--product", product)
    server = os.path.join(out_dir, "widget-server")
    shutil.copy(os.path.join(RELEASE, "widget-server"), server)
    run("strip", "--strip-debug", server)
    callgrind = os.path.join(out_dir, "server.callgrind")
    with open(os.path.join(out_dir, "server.log"), "w+") as log:
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--demangle=no", "--collect-atstart=no", "--toggle-collect=lws_service",
             "--callgrind-out-file=" + callgrind, server, "--host", "127.0.0.1", "--port", "0", "--state", "none",
             "--public", os.path.join(ROOT, "Public"), "--log-level", "warning"],
            stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        try:
            deadline = time.monotonic() + 120
            port = None
            while port is None and time.monotonic() < deadline and proc.poll() is None:
                log.seek(0)
                m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", log.read())
                port = m and m.group(1)
                time.sleep(0.2)
            if port is None:
                raise SystemExit("the server under valgrind did not say where it listens within 120 s")
            load = os.path.join(RELEASE, "widget-load")
            url = "ws://127.0.0.1:%s/" % port
            for args in (["--clients", "1", "--script", "drag", "--duration", "8", "--samples", "1500"],
                         ["--clients", "20", "--script", "ruler-fling", "--duration", "3"]):
                run(load, "run", "--url", url, "--scene", "ruler", *args, stdout=subprocess.DEVNULL, timeout=180)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise SystemExit("the server under valgrind did not stop within 60 s of SIGINT")
    return callgrind


def hot_functions(callgrind, root, least):
    """Functions called from `root`, depth first in the profile's order, over calls made `least` times or more."""
    names, calls = {}, {}

    def name(token):
        m = re.match(r"\((\d+)\)(?: (.*))?", token)
        if not m:
            return token
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), m.group(1))

    caller = callee = None
    with open(callgrind, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                caller, callee = name(line[3:]), None
                calls.setdefault(caller, {})
            elif line.startswith("cfn="):
                callee = name(line[4:])
            elif line.startswith("calls=") and caller is not None and callee is not None:
                n = int(line[6:].split()[0])
                calls[caller][callee] = calls[caller].get(callee, 0) + n
    order, seen, stack = [], set(), [root]
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        order.append(f)
        stack.extend(reversed([c for c, n in calls.get(f, {}).items() if n >= least and c not in seen]))
    # Swift's: this package's functions and the Swift runtime's, which a binary linked with
    # --static-swift-stdlib (docs/DEPLOY.md) has too (its objects have function sections);
    # without callgrind's recursion marks ("'2"). Not libc's or lws's, which stay shared.
    listed = []
    for f in order:
        f = re.sub(r"'\d+$", "", f)
        if f.startswith(("$s", "swift_", "_swift_", "_ZN5swift")) and f not in listed:
            listed.append(f)
    return listed


def check(binary):
    with open(ORDER) as f:
        listed = [line.strip() for line in f if line.strip()]
    out = subprocess.run(["nm", "-n", binary], check=True, capture_output=True, text=True).stdout
    address = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT" and parts[2] not in address:
            address[parts[2]] = int(parts[0], 16)
    found = [address[f] for f in listed if f in address]
    in_order = sum(1 for a, b in zip(found, found[1:]) if b > a)
    span = (max(found) - min(found)) if found else 0
    print("%s: %d of the %d listed functions, %d in the listed order, within %d KiB"
          % (binary, len(found), len(listed), in_order + (1 if found else 0), span // 1024))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--least", type=int, default=500, help="calls an edge needs to be walked (default 500)")
    ap.add_argument("--check", metavar="BINARY", help="only report how BINARY follows the list")
    args = ap.parse_args()
    if args.check:
        check(args.check)
        return
    with tempfile.TemporaryDirectory() as out_dir:
        listed = hot_functions(profile(out_dir), "lws_service", args.least)
    if len(listed) < 100:
        raise SystemExit("only %d functions: was the profile empty?" % len(listed))
    with open(ORDER, "w") as f:
        f.write("".join(line + "\n" for line in listed))
    print("%d functions written to %s" % (len(listed), os.path.relpath(ORDER, ROOT)))
    for product in ("widget-server", "widget-bench"):
        path = os.path.join(RELEASE, product)
        if os.path.exists(path):
            os.remove(path)
    run("swift", "build", "-c", "release", "--product", "widget-server")
    check(os.path.join(RELEASE, "widget-server"))


if __name__ == "__main__":
    sys.exit(main())
