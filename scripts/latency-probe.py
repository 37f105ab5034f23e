#!/usr/bin/env python3
"""Input to frame against echo on one connection, from a client that shares no code with the
server: Python's `websockets` (Debian's python3-websockets). It holds the ruler of a room and, as
widget-load's probe does, sends a pointer move, times the frame that the `applied` echo of its
`t` comes straight after, then a ping and its pong (docs/BENCHMARKS.md, "Input → frame").

--idle MS [MS ...] lets the connection stand idle that long before each ping (since its move's
frame) and each move (since the pong before it; moves stay at least --gap apart), one run each
(default 0 and 1.1). A move comes after an idle; a ping sent at once after the frame finds both
processes still awake from the move, and is timed warm (0: as widget-load did before
2026-11-26). Alike before both (1.1, as widget-load does), each wakes the same.

--server BIN starts BIN on a free loopback port (`--state none --public Public`) for the runs and
stops it after; else --url names a running one. Loopback only; bounded by --samples and
--seconds; stops by itself.
"""

import argparse
import asyncio
import json
import re
import signal
import statistics
import subprocess
import tempfile
import time

import websockets


async def recv(ws, deadline):
    """The next message, or the run's end when none comes before its deadline; an error ends it."""
    try:
        m = await asyncio.wait_for(ws.recv(), max(0.001, deadline - time.monotonic()))
    except asyncio.TimeoutError:
        raise SystemExit("no answer before the run's deadline")
    if isinstance(m, str) and json.loads(m).get("type") == "error":
        raise SystemExit("refused: " + m)
    return m


async def probe(url, protocol, room, samples, seconds, gap_ms, idle_ms):
    async with websockets.connect(url, subprotocols=["scroll-widgets"], max_size=1 << 22) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": protocol, "room": room, "scene": "ruler"}))
        deadline = time.monotonic() + seconds
        while not isinstance(await recv(ws, deadline), bytes):
            pass  # until the first frame: the room is ours
        x = 250.0
        await ws.send(json.dumps({"type": "pointer", "phase": "down", "id": 1, "x": x, "y": 214, "t": 0}))
        to_frame, echo = [], []
        step = 0
        next_move = time.monotonic() * 1000
        while len(echo) < samples and time.monotonic() < deadline:
            # At least `gap_ms` after the move before, and `idle_ms` after the pong.
            wait = next_move - time.monotonic() * 1000
            if wait > 0:
                await asyncio.sleep(wait / 1000)
            step += 1
            phase = step % 200
            x = 150 + (phase if phase < 100 else 200 - phase)
            t = time.monotonic() * 1000
            text = json.dumps({"type": "pointer", "phase": "move", "id": 1, "x": x, "y": 214, "t": t})
            # Timed from the send, as widget-load times it: encoding the stamp is the client's work.
            sent = time.monotonic() * 1000
            await ws.send(text)
            last_frame = None
            while True:
                m = await recv(ws, deadline)
                now = time.monotonic() * 1000
                if isinstance(m, bytes):
                    last_frame = now
                    continue
                msg = json.loads(m)
                if msg.get("type") == "applied" and msg.get("t") == t:
                    break
            if last_frame is None:
                continue
            wait = idle_ms - (time.monotonic() * 1000 - last_frame)
            if wait > 0:
                await asyncio.sleep(wait / 1000)
            p = time.monotonic() * 1000
            text = json.dumps({"type": "ping", "t": p})
            pinged = time.monotonic() * 1000
            await ws.send(text)
            while True:
                m = await recv(ws, deadline)
                if isinstance(m, str):
                    msg = json.loads(m)
                    if msg.get("type") == "pong" and msg.get("t") == p:
                        pong = time.monotonic() * 1000
                        echo.append(pong - pinged)
                        next_move = max(t + gap_ms, pong + idle_ms)
                        break
            to_frame.append(last_frame - sent)
        return to_frame, echo


def start_server(binary, log):
    """`binary` on a free loopback port, its output to `log`; returns it and its ws:// URL."""
    proc = subprocess.Popen(
        [binary, "--host", "127.0.0.1", "--port", "0", "--state", "none", "--public", "Public",
         "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        with open(log.name) as f:
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", f.read())
        if m:
            return proc, "ws://127.0.0.1:%s/ws" % m.group(1)
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not say where it listens within 30 s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--url", help="ws://127.0.0.1:PORT/ws (loopback only)")
    where.add_argument("--server", help="a widget-server binary to start for the runs")
    ap.add_argument("--room", default="python-probe")
    ap.add_argument("--protocol", type=int, default=10, help="the protocol version to say hello with")
    ap.add_argument("--samples", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=20, help="at most this long a run")
    ap.add_argument("--gap", type=float, default=2.2, help="ms from a move to the next (default 2.2, as widget-load)")
    ap.add_argument("--idle", type=float, nargs="+", default=[0, 1.1],
                    help="ms idle before each ping and move, one run each (default 0 1.1)")
    a = ap.parse_args()
    proc = None
    url = a.url
    log = tempfile.NamedTemporaryFile("w", prefix="latency-probe-server-", suffix=".log")
    if a.server:
        proc, url = start_server(a.server, log)
    host = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
    if host not in ("127.0.0.1", "::1", "localhost"):
        raise SystemExit("loopback only: " + host)
    try:
        for i, idle in enumerate(a.idle):
            to_frame, echo = asyncio.run(
                probe(url, a.protocol, "%s-%d" % (a.room, i), a.samples, a.seconds, a.gap, idle))
            if not echo:
                raise SystemExit("no samples in %s s" % a.seconds)
            f, e = statistics.median(to_frame), statistics.median(echo)
            print(json.dumps({"idleMs": idle, "samples": len(echo), "inputToFrameMs": round(f, 4),
                              "echoMs": round(e, 4), "ratio": round(f / e, 3)}), flush=True)
    finally:
        if proc:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


if __name__ == "__main__":
    main()
