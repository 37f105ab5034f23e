#!/usr/bin/env python3
"""Independent model of the weight ruler, written from the spec only (WIDGETS.md §1,
DESIGN.md "Physics reference", docs/PHYSICS.md), that derives the expected results of
the golden traces. It shares no code with ScrollCore: run it to regenerate
<trace>.expected.json after a deliberate change of the spec, never to match the code.

    python3 reference_model.py slow-drag.jsonl > slow-drag.expected.json

Scope: one pointer on the ruler, wheel, keys, the setValue action (docs/PROTOCOL.md,
"Widget actions"); no rubber band (the ruler has no edges).
"""
import json, math, sys

FPS = 60
D = 0.998                        # deceleration per ms (UIKit normal)
K = -1000 * math.log(D)          # v(t) = v0·e^(−K·t)
REST = 0.5                       # fling done when < 0.5 pt remain
SETTLE = 0.2                     # revision animation (s)
WHEEL_SETTLE = 0.15              # settle delay after the latest wheel event (s)
REPORT = 0.016                   # moving value reports at most every 16 ms
LINE, PAGE = 16, 390             # wheel deltaMode 1 and 2, in pt

def ease(u):                     # cubic Bézier (0.42, 0, 0.58, 1)
    if u <= 0: return 0.0
    if u >= 1: return 1.0
    bez = lambda a, b, s: 3*(1-s)**2*s*a + 3*(1-s)*s*s*b + s**3
    lo, hi = 0.0, 1.0
    for _ in range(200):
        s = (lo + hi) / 2
        if bez(0.42, 0.58, s) < u: lo = s
        else: hi = s
    return bez(0, 1, (lo + hi) / 2)

def cell(x): return math.floor((x + 5) / 10)                  # tick whose 10-pt cell holds x
def tenths(n): return 85 + (n - 85) % 9910                     # labels 9…999 wrap
def value(x): return tenths(cell(x)) / 10
def text(x): t = tenths(cell(x)); return f"{t // 10}.{t % 10} kg"

class Ruler:
    def __init__(self, v):
        self.x = round(v * 10) * 10.0
        self.motion = None             # (start, end, f(t), target)
        self.wheel_due = None
        self.tracking = False
        self.samples = []
        self.final_pending = False
        self.reported = cell(self.x)
        self.last = -math.inf
        self.events = []
        self.rest = 0.0

    def pos(self, t):
        if self.motion and t < self.motion[1]: return self.motion[2](t)
        return self.x

    def run_to(self, t):
        while True:
            if self.motion and t >= self.motion[1]:
                start, end, f, target = self.motion
                self.motion, self.x = None, target
                self.rest = end
            elif self.wheel_due is not None and t >= self.wheel_due:
                due, self.wheel_due = self.wheel_due, None
                self.settle(self.x, due)
            else:
                return

    def settle(self, x, t):
        target = round(x / 10) * 10.0
        if target == x: self.x, self.rest = x, t
        else: self.ease(x, target, t)

    def ease(self, a, b, t0):
        self.motion = (t0, t0 + SETTLE, lambda t: a + (b - a) * ease((t - t0) / SETTLE), b)

    def fling(self, x0, v0, t0):
        target = round((x0 + v0 / K) / 10) * 10.0            # nearest tick to x∞ = x0 − v0/(1000·ln d)
        v = (target - x0) * K                                # retargeted onto it (PHYSICS.md)
        done = 0.0 if abs(v) / K <= REST else math.log(REST / (abs(v) / K)) / (1000 * math.log(D))
        self.motion = (t0, t0 + done, lambda t: x0 + v * (1 - D ** (1000 * (t - t0))) / K, target)

    def velocity(self, lift):
        s = self.samples
        if not s or lift - s[-1][0] > 0.04: return 0.0
        s = [p for p in s if s[-1][0] - p[0] <= 0.1]
        i = len(s) - 1
        while i > 0 and s[i][0] - s[i-1][0] <= 0.04: i -= 1
        s = s[i:]
        if len({p[0] for p in s}) < 2: return 0.0
        mt = sum(p[0] for p in s) / len(s); mx = sum(p[1] for p in s) / len(s)
        v = sum((p[0]-mt)*(p[1]-mx) for p in s) / sum((p[0]-mt)**2 for p in s)
        v = max(-8000, min(8000, v))
        return 0.0 if abs(v) < 50 else v

    def update(self, t):
        x = self.pos(t)
        moving = self.motion is not None or self.wheel_due is not None
        if self.final_pending and not moving and not self.tracking:
            self.final_pending = False
            self.reported, self.last = cell(x), self.rest
            self.events.append(dict(t=self.rest, type="value", value=value(x), text=text(x), final=True))
        elif cell(x) != self.reported and t - self.last >= REPORT:
            self.reported, self.last = cell(x), t
            self.events.append(dict(t=t, type="value", value=value(x), text=text(x), final=False))

    def input(self, e, t):
        self.run_to(t)
        self.update(t)                                       # the scene advances first
        kind = e["type"]
        if kind == "down":
            self.x = self.pos(t); self.motion = None; self.wheel_due = None
            self.tracking, self.final_pending = True, False
            self.pointer = e["x"]; self.samples = [(t, e["x"])]
        elif kind == "move" and self.tracking:
            self.samples.append((t, e["x"]))
            self.x -= e["x"] - self.pointer; self.pointer = e["x"]
        elif kind in ("up", "cancel") and self.tracking:
            self.tracking, self.final_pending = False, True
            v = -self.velocity(t) if kind == "up" else 0.0   # content moves against the pointer
            if v: self.fling(self.x, v, t)
            else: self.settle(self.x, t)
        elif kind == "wheel" and not self.tracking:
            unit = {0: 1, 1: LINE, 2: PAGE}[e.get("deltaMode", 0)]
            dx, dy = e.get("dx", 0) * unit, e.get("dy", 0) * unit
            self.x = self.pos(t) + (dx if abs(dx) >= abs(dy) else dy)
            self.motion, self.wheel_due, self.final_pending = None, t + WHEEL_SETTLE, True
        elif kind == "key" and not self.tracking:
            step = {"ArrowRight": 1, "ArrowUp": 1, "ArrowLeft": -1, "ArrowDown": -1, "PageUp": 10, "PageDown": -10}.get(e["key"])
            if step is not None:
                here = cell(self.pos(t)) * 10.0
                self.ease(self.pos(t), here + step * 10, t); self.wheel_due = None; self.final_pending = True
        elif kind == "action" and e["action"] == "setValue" and not self.tracking:
            # To the tick of the value (0.1 kg), the short way round the 9910-tick wrap, in 0.2 s.
            here = cell(self.pos(t))
            ahead = (tenths(round(e["args"]["value"] * 10)) - tenths(here)) % 9910
            step = ahead if ahead <= 9910 // 2 else ahead - 9910
            self.ease(self.pos(t), (here + step) * 10.0, t); self.wheel_due = None; self.final_pending = True
        self.run_to(t)
        self.update(t)

def replay(path, fps=FPS):
    entries = [json.loads(l) for l in open(path) if l.strip() and not l.lstrip().startswith("#")]
    r, k = Ruler(72.5), 0
    busy = lambda: r.motion is not None or r.wheel_due is not None
    for e in entries:
        t = e["t"] / 1000
        while k / fps < t:
            if busy(): r.run_to(k / fps); r.update(k / fps)
            k += 1
        r.input(e, t)
    while busy():
        r.run_to(k / fps); r.update(k / fps); k += 1
    x = r.pos(k / fps)
    return {
        "widgets": {"readout": {"text": text(x)}, "ruler": {"value": value(x), "text": text(x)}},
        "events": [dict(t=round(ev["t"], 6), widget="ruler", **{k2: v for k2, v in ev.items() if k2 != "t"})
                   for ev in r.events],
    }

if __name__ == "__main__":
    out = replay(sys.argv[1])
    print("{")
    print('  "widgets": ' + json.dumps(out["widgets"]) + ",")
    print('  "events": [')
    print(",\n".join("    " + json.dumps(e) for e in out["events"]))
    print("  ]")
    print("}")
