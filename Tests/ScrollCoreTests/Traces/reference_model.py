#!/usr/bin/env python3
"""Independent model of the weight ruler, the tick picker, the carousel and the digit roller,
written from the spec only (WIDGETS.md §1–4 and seed 001's code, DESIGN.md "Physics
reference", docs/PHYSICS.md, docs/PROTOCOL.md, docs/TRACES.md), that derives the expected
results of the golden traces.
It shares no code with ScrollCore: run it to regenerate <trace>.expected.json after a
deliberate change of the spec, never to match the code.

    python3 reference_model.py slow-drag.jsonl > slow-drag.expected.json

A trace runs against the scene its `# scene: NAME` comment names (demo, ruler, picker,
picker-free, carousel, roller), else demo. Refused action lines are listed under "refused"
({"line", "error"}, the error in the model's words), as the replayer's result lists them.

Scope: pointers (a down goes to the widget whose frame holds it, the gesture stays with it; fair
capture, PROTOCOL.md "Sharing a room": a down on a widget another pointer key (client, pointer)
holds is ignored, and a down with the key of a captured pointer cancels its old gesture first),
`leave` lines (a holder that leaves: the client's pointers, in pointer-id order, lift at the
line's scene time T with a sample at their last position and client time last + (T − last scene
time); the carousel lifts only a horizontal drag and cancels any other gesture), wheel (to the
widget under it), keys and actions (setValue; the carousel's select, add and delete; to the
named widget, else the scene's first widget with keys; an action the widget cannot perform is
refused and noted on stderr). A line is applied at its `at` (else `t`) and its `t` is the
pointer sample's time for the velocity (docs/TRACES.md). The ruler has no edges and wraps its
labels; the picker has hard edges at 0 and 10·N.

The model is event-driven: it has no frame clock at all. Every motion is closed form and
each tick crossing is solved for its exact time (closed form for a fling, by bisection on
the Bézier parameter for an ease), so the events it derives are by construction those of
any frame rate.

The carousel (scenes carousel and demo): items with slots, an axis x ∈ [0, 78·(count − 1)]
(item k centred at k·78), the fast glide (0.99/ms, done when 0.5 pt remain) followed by the
0.3 s ease onto the nearest item, 0.3 s eases for taps, keys, select, add and delete, taps
and swipes told apart by the 10 pt slop, and the selection that settles when the axis rests
and no item animation runs (`selected` at that exact time, when the index or the item
differs from the last reported; `added` / `deleted` at once). Readings it takes where the
spec is open, each explained where it is coded: a swipe up lets go of the row at its
recognising sample (the delete, with its ease to t', starts while the finger is down); the
index a glide is heading for is the item nearest x∞; Delete/Backspace delete the selected
(settled) item; keys are ignored while a finger holds the carousel. Where the spec says
nothing (the rubber band past an edge, a wheel on the carousel, a hit test while slots
slide, select/add under a finger, a down just after an ease that had
nowhere to go) it stops with "not modelled" instead of guessing.

Value reports (both widgets): each change to a new tick at time t first flushes, then
(picker) emits moved + haptic per tick crossed, then reports the value at t if at least
16 ms have passed since the last report, else keeps it pending; a pending report is
emitted at last + 16 ms by the first flush at or after that time (every crossing, input,
rest); the final report at the rest time r flushes, drops any pending and reports. Events
come out in time order: a pending report due before a crossing is flushed before that
crossing's moved/haptic events, whatever the frame rate.

The roller (scene roller; see `Roller`): seed 001's timeline in closed form (repeat counts,
default interval, per-column start / turns / end with carry delays, growth with its re-lay),
the queue that keeps only the newest waiting change, jumps, refusals. Only times matter for
its events, so the model keeps each column's moves but never evaluates the curves. The
readouts of the ruler, picker and demo scenes (rollers following their widget, reporting
nothing) show their widget's final text once everything settles.
"""
import json, math, sys

D = 0.998                        # deceleration per ms (UIKit normal)
K = -1000 * math.log(D)          # v(t) = v0·e^(−K·t)
REST = 0.5                       # fling done when < 0.5 pt remain
SETTLE = 0.2                     # revision / key / action ease (s)
WHEEL_SETTLE = 0.15              # settle delay after the latest wheel event (s)
REPORT = 0.016                   # moving value reports at most every 16 ms
LINE = 16                        # wheel deltaMode 1, in pt; deltaMode 2 is the widget's width
N = 100                          # the picker's values 0…N


def bez(a, b, s):                # one coordinate of the cubic Bézier (0,0) (a,·) (b,·) (1,1)
    return 3 * (1 - s) ** 2 * s * a + 3 * (1 - s) * s * s * b + s ** 3


def solve(f, y):                 # the s in [0, 1] with f(s) = y, f increasing from 0 to 1
    lo, hi = 0.0, 1.0
    for _ in range(200):
        s = (lo + hi) / 2
        if f(s) < y: lo = s
        else: hi = s
    return (lo + hi) / 2


def ease(u):                     # cubic-bezier(0.42, 0, 0.58, 1): progress at time fraction u
    if u <= 0: return 0.0
    if u >= 1: return 1.0
    return bez(0, 1, solve(lambda s: bez(0.42, 0.58, s), u))


def ease_time(p):                # its inverse: the time fraction at which progress is p
    return bez(0.42, 0.58, solve(lambda s: bez(0, 1, s), p))


def reached(margin, what):
    """Whether a 16 ms comparison holds (margin ≥ 0) in the spec's real arithmetic. Input
    times are whole ms (or µs) and report stamps are last + 0.016, so exact ties are common
    (fling.jsonl: a report stamped 0.074, a move at 0.09), and binary floating point can put
    them on either side (0.074 + 0.016 > 0.09 in doubles). The spec's "≥"/"≤" count a tie,
    so a margin within 1 ns is a tie and holds. A margin under 1 µs but not a tie would make
    the trace hinge on rounding: warned about."""
    if abs(margin) < 1e-9:
        if margin != 0: print(f"note: {what}: a tie (float margin {margin:.3g} s), counted", file=sys.stderr)
        return True
    if abs(margin) < 1e-6: print(f"warning: {what} decided by {margin:.3g} s", file=sys.stderr)
    return margin > 0


def cell(x): return math.floor((x + 5) / 10)                  # tick whose 10-pt cell holds x
def nearest_tick(x): return math.floor(x / 10 + 0.5) * 10.0    # nearest multiple of 10


def steps(a, b):
    """The ticks entered, in order, going from offset a to offset b, each with the cell
    boundary where it is entered (10k − 5 going up, 10k + 5 going down)."""
    ca, cb = cell(a), cell(b)
    if cb >= ca: return [(k, 10 * k - 5) for k in range(ca + 1, cb + 1)]
    return [(k, 10 * k + 5) for k in range(ca - 1, cb - 1, -1)]


# Ruler labels: tenths of a kg 85…9994 (8.5 … 999.4 kg), wrapping.
def tenths(n): return 85 + (n - 85) % 9910
def ruler_value(x): return tenths(cell(x)) / 10
def ruler_text(x): t = tenths(cell(x)); return f"{t // 10}.{t % 10} kg"
def picker_value(x): return cell(x)
def picker_text(x): return str(cell(x))


def velocity(samples, lift):
    """Pointer velocity at the lift (PHYSICS.md, "Velocity tracker"): 100 ms window before
    the newest sample, samples before a pause > 40 ms dropped, 0 if the lift is > 40 ms
    after the last sample, quadratic least squares at the newest sample (linear with two
    distinct times), |v| ≤ 8000, |v| < 50 → 0."""
    if not samples or lift - samples[-1][0] > 0.04: return 0.0
    newest = samples[-1][0]
    s = [p for p in samples if newest - p[0] <= 0.1]
    i = len(s) - 1
    while i > 0 and s[i][0] - s[i - 1][0] <= 0.04: i -= 1
    s = s[i:]
    times = {p[0] for p in s}
    if len(times) < 2: return 0.0
    u = [p[0] - newest for p in s]
    x = [p[1] for p in s]
    if len(times) == 2:
        mu, mx = sum(u) / len(u), sum(x) / len(x)
        v = sum((a - mu) * (b - mx) for a, b in zip(u, x)) / sum((a - mu) ** 2 for a in u)
    else:                        # x = c0 + c1·u + c2·u², u = t − newest: v = c1
        m = [[sum(a ** (i + j) for a in u) for j in range(3)] for i in range(3)]
        r = [sum(b * a ** i for a, b in zip(u, x)) for i in range(3)]
        v = solve3(m, r)[1]
    v = max(-8000.0, min(8000.0, v))
    return 0.0 if abs(v) < 50 else v


def solve3(m, r):                # Gaussian elimination with partial pivoting
    a = [row[:] + [r[i]] for i, row in enumerate(m)]
    for c in range(3):
        p = max(range(c, 3), key=lambda i: abs(a[i][c]))
        a[c], a[p] = a[p], a[c]
        for i in range(c + 1, 3):
            f = a[i][c] / a[c][c]
            a[i] = [a[i][j] - f * a[c][j] for j in range(4)]
    out = [0.0] * 3
    for i in (2, 1, 0):
        out[i] = (a[i][3] - sum(a[i][j] * out[j] for j in range(i + 1, 3))) / a[i][i]
    return out


class Motion:
    """A closed-form motion from t0 to t1: position(t), the position it reaches at t1 before
    handing over to its rest point `rest`, and time(c) at which it passes offset c."""
    def __init__(self, t0, t1, position, end, rest, time):
        self.t0, self.t1, self.position, self.end, self.rest, self.time = t0, t1, position, end, rest, time


def ease_motion(a, b, t0):
    return Motion(t0, t0 + SETTLE, lambda t: a + (b - a) * ease((t - t0) / SETTLE), b, b,
                  lambda c: t0 + SETTLE * ease_time((c - a) / (b - a)))


def fling_motion(x0, v, t0, t1, rest):
    """x(t) = x0 + v(1 − 0.998^(1000τ))/K, τ = t − t0; it reaches c when
    0.998^(1000τ) = 1 − (c − x0)K/v."""
    position = lambda t: x0 + v * (1 - D ** (1000 * (t - t0))) / K
    time = lambda c: t0 + math.log(1 - (c - x0) * K / v) / (1000 * math.log(D))
    return Motion(t0, t1, position, position(t1), rest, time)


def done_after(v):               # time until |x∞ − x(t)| = |v(t)|/K falls to 0.5 pt
    return 0.0 if abs(v) / K <= REST else math.log(REST * K / abs(v)) / (1000 * math.log(D))


class ScrollWidget:
    """One scroll axis with its value reports: the ruler (unbounded, snaps) or the picker
    (hard edges 0…10N, snaps or stops free, emits moved + haptic at each crossing)."""

    def __init__(self, wid, frame, x, value, text, bounds=None, snap=True, moved=False):
        self.id, self.frame, self.x = wid, frame, x
        self.value, self.text = value, text
        self.bounds, self.snap, self.moved = bounds, snap, moved
        self.motion = None           # Motion, with its crossings still to come
        self.crossings = []          # [(time, tick)] of the running motion, in order
        self.wheel_due = None
        self.captor = None           # the pointer holding it
        self.final_pending = False
        self.last, self.pending = -math.inf, None
        self.events = []

    # -- time ---------------------------------------------------------------------------
    def pos(self, t):
        if self.motion and t < self.motion.t1: return self.motion.position(t)
        return self.x

    def busy(self): return self.motion is not None or self.wheel_due is not None

    def next_time(self): return self.motion.t1 if self.motion else self.wheel_due

    def advance(self, t):
        """Everything due up to t, in time order: crossings, motion ends, wheel settles."""
        while True:
            if self.crossings and self.crossings[0][0] <= t:
                c, k = self.crossings.pop(0)
                self.change(c, [k])
            elif self.motion and self.motion.t1 <= t:
                m, self.motion = self.motion, None
                jump = [k for k, _ in steps(m.end, m.rest)]     # the hand-over to the rest point
                self.x = m.rest
                if jump: self.change(m.t1, jump)
                self.rested(m.t1)
            elif self.wheel_due is not None and self.wheel_due <= t:
                due, self.wheel_due = self.wheel_due, None
                self.settle(due)
            else:
                break
        self.flush(t)

    def start(self, m):
        self.motion, self.wheel_due = m, None
        self.crossings = [(m.time(b), k) for k, b in steps(self.x, m.end)]
        self.advance(m.t0)           # a motion done at once (nothing to do) ends here

    def clamp(self, x):
        if self.bounds is None: return x
        return max(self.bounds[0], min(self.bounds[1], x))

    # -- events -------------------------------------------------------------------------
    def emit(self, t, **fields):
        self.events.append(dict(t=t, widget=self.id, **fields))

    def report(self, t, x, final):
        self.emit(t, type="value", value=self.value(x), text=self.text(x), final=final)

    def flush(self, t):
        if self.pending is not None and reached(t - (self.last + REPORT), f"{self.id} flush at {t}"):
            due = self.last + REPORT
            self.report(due, self.pending, False)
            self.last, self.pending = due, None

    def change(self, t, ticks):
        """The centre entered ticks[0], …, ticks[-1] at time t (one per crossing)."""
        self.flush(t)
        if self.moved:
            for k in ticks:
                self.emit(t, type="moved", value=k)
                self.emit(t, type="haptic", style="selection")
        x = ticks[-1] * 10.0     # an offset in the last tick's cell
        if reached(t - self.last - REPORT, f"{self.id} report at {t}"):
            self.report(t, x, False)
            self.last, self.pending = t, None
        else:
            self.pending = x

    def rested(self, r):
        if self.final_pending and self.captor is None:
            self.final_pending = False
            self.flush(r)
            self.pending = None
            self.report(r, self.x, True)
            self.last = r

    def jump(self, t, x):
        """An input moves the offset at once: one crossing per tick, all at t."""
        ticks = [k for k, _ in steps(self.x, x)]
        self.x = x
        if ticks: self.change(t, ticks)

    def stop(self, t):           # freeze any motion where it is now
        self.x = self.pos(t)
        self.motion, self.crossings, self.wheel_due = None, [], None

    # -- motions ------------------------------------------------------------------------
    def settle(self, t):         # ease onto the nearest tick (inside the edges), or rest there
        target = self.clamp(nearest_tick(self.x))
        if target == self.x: self.rested(t)
        else: self.start(ease_motion(self.x, target, t))

    def ease_to(self, target, t):
        self.stop(t)
        self.final_pending = True
        self.start(ease_motion(self.x, target, t))

    def fling(self, v, t):
        x0 = self.x
        if self.snap:            # projected snap: onto the tick nearest x∞, retargeted
            target = self.clamp(nearest_tick(x0 + v / K))
            v2 = (target - x0) * K
            if v2 == 0: self.rested(t); return
            self.start(fling_motion(x0, v2, t, t + done_after(v2), target))
            return
        far = x0 + v / K         # free stop
        if self.bounds is not None and not self.bounds[0] <= far <= self.bounds[1]:
            edge = self.bounds[1] if far > self.bounds[1] else self.bounds[0]
            m = fling_motion(x0, v, t, t, edge)
            m.t1 = m.time(edge)  # ends exactly on the edge at the time it reaches it
            m.end = edge
            self.start(m)
        else:
            self.start(fling_motion(x0, v, t, t + done_after(v), self.clamp(far)))

    # -- input --------------------------------------------------------------------------
    def down(self, key, px, t, ct):
        self.stop(t)
        self.captor, self.final_pending = key, False
        self.pointer, self.samples = px, [(ct, px)]

    def move(self, px, t, ct):
        self.samples.append((ct, px))
        x = self.clamp(self.x - (px - self.pointer))
        self.pointer = px
        self.jump(t, x)

    def up(self, px, t, ct, cancel):
        self.captor, self.final_pending = None, True
        v = 0.0 if cancel else -velocity(self.samples, ct)   # content moves against the pointer
        if v: self.fling(v, t)
        elif self.snap: self.settle(t)
        else: self.rested(t)

    def wheel(self, e, t):
        if self.captor is not None: return
        unit = {0: 1, 1: LINE, 2: self.frame[2]}[e.get("deltaMode", 0)]
        dx, dy = e.get("dx", 0) * unit, e.get("dy", 0) * unit
        self.stop(t)
        self.final_pending = True
        self.jump(t, self.clamp(self.x + (dx if abs(dx) >= abs(dy) else dy)))
        if self.snap: self.wheel_due = t + WHEEL_SETTLE
        else: self.rested(t)


class Ruler(ScrollWidget):
    KEYS = {"ArrowRight": 1, "ArrowUp": 1, "ArrowLeft": -1, "ArrowDown": -1, "PageUp": 10, "PageDown": -10}

    def __init__(self, frame, kg=72.5):
        super().__init__("ruler", frame, round(kg * 10) * 10.0, ruler_value, ruler_text)

    def key(self, key, t):
        if self.captor is not None: return
        if key in ("Home", "End"):
            self.set_value(9.0 if key == "Home" else 999.0, t)
        elif key in self.KEYS:
            self.ease_to((cell(self.pos(t)) + self.KEYS[key]) * 10.0, t)

    def set_value(self, kg, t):
        # To the tick of the value (0.1 kg), the short way round the 9910-tick wrap, in 0.2 s.
        if self.captor is not None: return
        here = cell(self.pos(t))
        ahead = (tenths(round(kg * 10)) - tenths(here)) % 9910
        step = ahead if ahead <= 9910 // 2 else ahead - 9910
        self.ease_to((here + step) * 10.0, t)


class Picker(ScrollWidget):
    KEYS = {"ArrowRight": 1, "ArrowUp": 1, "ArrowLeft": -1, "ArrowDown": -1, "PageUp": 10, "PageDown": -10}

    def __init__(self, frame, snap):
        super().__init__("picker", frame, 0.0, picker_value, picker_text,
                         bounds=(0.0, 10.0 * N), snap=snap, moved=True)

    def key(self, key, t):
        if self.captor is not None: return
        here = cell(self.pos(t))
        if key == "Home": tick = 0
        elif key == "End": tick = N
        elif key in self.KEYS: tick = max(0, min(N, here + self.KEYS[key]))
        else: return
        self.ease_to(tick * 10.0, t)

    def set_value(self, value, t):
        if self.captor is not None: return
        self.ease_to(math.floor(value + 0.5) * 10.0, t)


# -- The carousel (WIDGETS.md §3) --------------------------------------------------------
CAR_D = 0.99                     # deceleration .fast: 0.99 per ms
CAR_K = -1000 * math.log(CAR_D)  # v(t) = v0·e^(−K·t), x∞ = x0 + v0/K
CAR_SETTLE = 0.3                 # every carousel ease (snap, tap, key, select, add, delete) and
                                 # every slot / appear / leave animation (s)
SLOP = 10                        # pt: within it (≤, Euclidean) nothing is decided
TAP_TIME = 0.3                   # s of client time, ≤
SWIPE = 40                       # pt of upward travel, >, and more vertical than horizontal
MAX_ITEMS = 50
EPS = 1e-9                       # ties go as written (PHYSICS.md, Gestures)
DEFAULT_ITEMS = ["Sun", "Moon", "Star", "Heart", "Leaf", "Custom"]


class NotModelled(Exception):
    """The trace reaches a case the carousel spec leaves open (or that needs the rubber band's
    spring): the model refuses rather than guess, so traces stay on the spec's firm ground."""


class Slot:
    """An item's slot s_k: k at rest, eased over 0.3 s from where it is when items come and go
    (the curve only matters for hit tests during the animation, which the model refuses)."""
    def __init__(self, s): self.a, self.b, self.t0, self.t1 = s, s, -math.inf, -math.inf

    def at(self, t):
        if t >= self.t1: return self.b
        return self.a + (self.b - self.a) * ease((t - self.t0) / (self.t1 - self.t0))

    def move(self, s, t):
        self.a, self.b, self.t0, self.t1 = self.at(t), s, t, t + CAR_SETTLE

    def moving(self, t): return t < self.t1


class Gesture:
    """One pointer on the carousel from down to up (PHYSICS.md, Gestures): undecided while
    within the 10 pt slop; the first sample beyond it locks: |dx| ≥ |dy| a horizontal drag
    starting at that sample, upward a swipe-up candidate, downward nothing. A candidate is a
    swipe up at its first sample with upward travel > 40 pt and |dy| > |dx|."""
    def __init__(self, x, y, ct, caught, hit, ignored=False):
        self.x0, self.y0, self.ct0 = x, y, ct
        self.caught, self.hit, self.ignored = caught, hit, ignored
        self.state = "undecided"
        self.left_slop = False
        self.samples, self.last = [], None      # the drag's (client time, pointer x), its last x
        self.all_samples = [(ct, x)]            # every sample since the down (to check the
                                                # trace does not depend on which are tracked)


class Carousel:
    """Items with slots, one scroll axis x ∈ [0, w·(count − 1)] (item k centred at x = k·w),
    the gestures, add / delete / select, keys, and the selection that settles when the axis
    rests and no item animation runs. Axis states: held (a finger), `motion` (a deceleration,
    then its 0.3 s ease onto the nearest item; or an ease to a target), or at rest at x."""

    KEYS = {"ArrowLeft": -1, "ArrowUp": -1, "ArrowRight": 1, "ArrowDown": 1}

    def __init__(self, frame):
        self.id, self.frame = "carousel", frame
        self.w = frame[2] / 5
        self.items = [dict(uid=i, name=n) for i, n in enumerate(DEFAULT_ITEMS)]
        self.made = len(self.items)              # items ever made: the next default name
        self.slots = {it["uid"]: Slot(k) for k, it in enumerate(self.items)}
        self.x = 2 * self.w                      # index 2 (Star) centred at start
        self.motion = None
        self.anim_end = -math.inf                # the last add/delete animation's end
        self.anim_due = False                    # its end is still to be processed
        self.held = None                         # the pointer holding the axis
        self.gestures = {}
        self.reported = (2, self.items[2]["uid"])  # the start counts as reported: Star at 2
        self.selected_uid, self.label = self.items[2]["uid"], "Star"
        self.zero_ease = -math.inf               # time of the latest ease that had no way to go
        self.events = []

    # -- geometry -------------------------------------------------------------------------
    def count(self): return len(self.items)
    def top(self): return self.w * (self.count() - 1)
    def index_of(self, uid): return next(k for k, it in enumerate(self.items) if it["uid"] == uid)
    def nearest(self, x): return max(0, min(self.count() - 1, math.floor(x / self.w + 0.5)))

    def inside(self, x, what):
        if x < -EPS or x > self.top() + EPS:
            raise NotModelled(f"{what}: x = {x:.3f} outside [0, {self.top()}] (rubber band / bounce)")

    def hit(self, px, t):
        """The item whose on-screen cell holds px: its left edge at minX + w·(s_k + 2) − x."""
        if any(s.moving(t) for s in self.slots.values()):
            raise NotModelled(f"hit test at {t} while slots animate (their curve is not specified)")
        for it in self.items:
            left = self.frame[0] + self.w * (self.slots[it["uid"]].at(t) + 2) - self.x
            if abs(px - left) < 1e-6 or abs(px - left - self.w) < 1e-6:
                raise NotModelled(f"pointer at {px} on a cell edge")
            if left <= px < left + self.w: return it["uid"]
        return None                              # an empty cell

    # -- time -----------------------------------------------------------------------------
    def pos(self, t):
        if self.motion and t < self.motion.t1: return self.motion.position(t)
        return self.x

    def busy(self): return self.motion is not None or self.anim_due

    def next_time(self):
        return min(x for x in (self.motion.t1 if self.motion else None,
                               self.anim_end if self.anim_due else None) if x is not None)

    def advance(self, t):
        while True:
            m_due = self.motion.t1 if self.motion and self.motion.t1 <= t else None
            a_due = self.anim_end if self.anim_due and self.anim_end <= t else None
            if m_due is not None and (a_due is None or m_due <= a_due):
                m, self.motion = self.motion, None
                self.x = m.rest                  # a fling jumps the last < 0.5 pt onto x∞
                if m.kind == "decel": self.ease_to(self.nearest(self.x) * self.w, m.t1)
                else: self.settle_selection(m.t1)
            elif a_due is not None:
                self.anim_due = False
                self.settle_selection(a_due)
            else:
                break

    def settle_selection(self, t):
        """At rest (no finger, no motion) with no item animation running: selection =
        round(x/w); `selected` when the index or the item differs from the last reported."""
        if self.held is not None or self.motion is not None or self.anim_due: return
        k = self.nearest(self.x)
        it = self.items[k]
        self.selected_uid, self.label = it["uid"], it["name"]
        if (k, it["uid"]) != self.reported:
            self.reported = (k, it["uid"])
            self.emit(t, type="selected", index=k, name=it["name"])

    def emit(self, t, **fields):
        self.events.append(dict(t=t, widget=self.id, **fields))

    # -- motions --------------------------------------------------------------------------
    def heading(self, t):
        """The index it is heading for: an ease's target, a fling's nearest item to x∞,
        else the item nearest x."""
        if self.motion: return self.nearest(self.motion.rest)
        return self.nearest(self.x)

    def stop(self, t):
        self.x = self.pos(t)
        self.motion = None

    def ease_to(self, target, t):
        self.stop(t)
        if self.x == target:                     # nowhere to go: at rest at once
            self.zero_ease = t
            self.settle_selection(t)
            return
        a = self.x
        self.motion = Motion(t, t + CAR_SETTLE, lambda u: a + (target - a) * ease((u - t) / CAR_SETTLE),
                             target, target, None)
        self.motion.kind = "ease"

    def fling(self, v, t):
        """x(τ) = x0 + v(1 − e^(−Kτ))/K; done when |v(τ)|/K < 0.5 pt, at τ = ln(|v|/(0.5K))/K;
        then the 0.3 s ease from x∞ onto the nearest item (snap .afterRest)."""
        x0, far = self.x, self.x + v / CAR_K
        self.inside(far, f"fling at {t} ends at x∞")
        done = t + (math.log(abs(v) / (REST * CAR_K)) / CAR_K if abs(v) / CAR_K > REST else 0.0)
        self.motion = Motion(t, done, lambda u: x0 + v * (1 - math.exp(-CAR_K * (u - t))) / CAR_K,
                             None, far, None)
        self.motion.kind = "decel"
        self.advance(t)

    def animating_to_target(self, t):
        return self.motion is not None and self.motion.kind == "ease" and t < self.motion.t1

    # -- add, delete, select --------------------------------------------------------------
    def start_items_animation(self, t):
        self.anim_end, self.anim_due = t + CAR_SETTLE, True

    def add(self, name, t):
        if self.held is not None: raise NotModelled(f"add at {t} while a finger holds the carousel")
        if self.count() >= MAX_ITEMS: return False
        c = self.count() - 1                     # before Custom
        self.made += 1
        it = dict(uid=self.made - 1, name=name if name is not None else f"Item {self.made}")
        self.items.insert(c, it)
        self.slots[it["uid"]] = Slot(c)          # appears in place (scale 0 → 1 over 0.3 s)
        self.slots[self.items[-1]["uid"]].move(c + 1, t)
        self.start_items_animation(t)
        self.emit(t, type="added", index=c, name=it["name"])
        self.ease_to(c * self.w, t)
        return True

    def delete(self, k, t):
        if not 0 <= k < self.count() - 1: return False   # Custom, or no such item
        heading = self.heading(t)
        it = self.items.pop(k)
        del self.slots[it["uid"]]                # it rises and fades: no longer a cell to hit
        for j in range(k, self.count()): self.slots[self.items[j]["uid"]].move(j, t)
        self.start_items_animation(t)
        self.emit(t, type="deleted", index=k, name=it["name"])
        target = heading - 1 if k < heading else min(heading, self.count() - 1)
        if self.held is None: self.ease_to(target * self.w, t)
        else: self.inside(self.x, f"delete at {t} under a finger")
        return True

    def select(self, k, t):
        if self.held is not None: raise NotModelled(f"select at {t} while a finger holds the carousel")
        if not 0 <= k < self.count(): return False
        self.ease_to(k * self.w, t)
        return True

    def key(self, key, t):
        if self.held is not None: return     # PROTOCOL.md, key: ignored while a finger holds it
        if key in self.KEYS:
            k = max(0, min(self.count() - 1, self.heading(t) + self.KEYS[key]))
            self.ease_to(k * self.w, t)
        elif key == "Home": self.ease_to(0.0, t)
        elif key == "End": self.ease_to(self.top(), t)
        elif key in ("Delete", "Backspace"):
            # The selected item, the settled one (PROTOCOL.md's key row); only the arrows step
            # from the item the row is heading for. The two differ only while it moves.
            k = self.index_of_or_none(self.selected_uid)
            if k is None: raise NotModelled(f"{key} at {t}: the selected item is already gone")
            self.delete(k, t)

    def action(self, name, args, t):
        if name == "select":
            k = args.get("index")
            return isinstance(k, int) and not isinstance(k, bool) and self.select(k, t)
        if name == "delete":
            k = args.get("index")
            return isinstance(k, int) and not isinstance(k, bool) and self.delete(k, t)
        if name == "add":
            n = args.get("name")
            # docs/PROTOCOL.md: 1–32 characters and at most 128 bytes of UTF-8 (Python counts code
            # points, not characters: the traces' names are one code point a character).
            if n is not None and not (isinstance(n, str) and 1 <= len(n) <= 32 and len(n.encode()) <= 128):
                return False
            return self.add(n, t)
        return False

    # -- pointers -------------------------------------------------------------------------
    def down(self, key, px, py, t, ct):
        if self.animating_to_target(t):
            self.gestures[key] = Gesture(px, py, ct, False, None, ignored=True)
            return
        assert self.held is None, "fair capture keeps a second finger off a held carousel"
        if t - self.zero_ease < CAR_SETTLE:
            raise NotModelled(f"down at {t} within 0.3 s of an ease with nowhere to go (animating or not?)")
        caught = self.motion is not None         # a fling (its ease would be ignored above)
        self.stop(t)
        self.held = key
        self.gestures[key] = Gesture(px, py, ct, caught, self.hit(px, t))

    def move(self, key, px, py, t, ct):
        g = self.gestures[key]
        if g.ignored: return
        g.all_samples.append((ct, px))
        dx, dy = px - g.x0, py - g.y0
        if g.state == "undecided" and math.hypot(dx, dy) > SLOP + EPS:
            g.left_slop = True
            if abs(dx) >= abs(dy) - EPS:          # 45° is horizontal
                g.state, g.last, g.samples = "drag", px, [(ct, px)]
                return                           # the drag starts at this sample: no jump
            g.state = "candidate" if dy < 0 else "none"
        if g.state == "candidate" and -dy > SWIPE + EPS and abs(dy) > abs(dx) + EPS:
            # A swipe up: the delete starts at this sample, while the finger is still down
            # (PHYSICS.md, Gestures), so the finger stops holding the axis here: the row
            # heads for t' at once (the spec's delete; its "unless a finger holds it" is
            # about a drag). On Custom or an empty cell it just settles.
            g.state = "swiped"
            self.held = None
            k = None if g.hit is None else self.index_of_or_none(g.hit)
            if k is not None and k != self.count() - 1: self.delete(k, t)
            else: self.settle(t)
        elif g.state == "drag":
            g.samples.append((ct, px))
            self.x -= px - g.last
            g.last = px
            self.inside(self.x, f"drag at {t}")

    def index_of_or_none(self, uid):
        return next((k for k, it in enumerate(self.items) if it["uid"] == uid), None)

    def up(self, key, px, py, t, ct, cancel):
        g = self.gestures.pop(key)
        if g.ignored or g.state == "swiped": return     # a swipe let go of the axis already
        self.held = None
        moved = math.hypot(px - g.x0, py - g.y0)
        elapsed = ct - g.ct0
        if (not cancel and g.state == "undecided" and not g.caught
                and moved <= SLOP + EPS and elapsed <= TAP_TIME + EPS):
            k = None if g.hit is None else self.index_of_or_none(g.hit)
            if k is None: self.settle(t)         # an empty cell: settle only
            elif k == self.count() - 1: self.add(None, t)
            else: self.ease_to(k * self.w, t)
            return
        if g.state == "drag" and not cancel:
            v = -velocity(g.samples, ct)         # content moves against the pointer
            if abs(v + velocity(g.all_samples, ct)) > 1e-6:
                raise NotModelled(f"release at {t}: the velocity depends on the samples before the drag")
            if v:
                self.fling(v, t)
                return
        self.settle(t)

    def settle(self, t):                         # a release without momentum
        self.ease_to(self.nearest(self.x) * self.w, t)


# -- The digit roller (WIDGETS.md §4, seed 001) ------------------------------------------
NORMAL = 0.3                     # seed normalModulus: default interval = 0.3·columns·|Δ top digit|
BUFFER = 0.7                     # seed bufferModulus: end phase 0.7·d^0.3/(i + 1)
RELAY = 0.2                      # s per column added on the left
MAX_COLUMNS = 8
MAX_N = 10 ** MAX_COLUMNS - 1    # 99,999,999


def columns_of(n): return len(str(n))          # seed calculateRowNumber (0 has one column)
def digit(n, i): return n // 10 ** i % 10


def repeat_counts(frm, to):
    """Seed getRepeatTimesWithChangeNumber: round both down to tens, the difference / 10 is
    the ones' count; shift one digit and repeat until they agree. 521→530 [1, 0],
    521→542 [2, 0], 999→1000 [1, 1, 1, 0]; counting down, the mirror."""
    hi, lo = max(frm, to), min(frm, to)
    out = []
    while True:
        hi, lo = hi // 10 * 10, lo // 10 * 10
        out.append((hi - lo) // 10)
        hi, lo = hi // 10, lo // 10
        if hi == lo: return out


def default_interval(frm, to):
    """Seed getIntervalWithOriginalNumber: 0.3 · animated columns · |change of the highest
    animated digit|."""
    count = len(repeat_counts(frm, to))
    return NORMAL * count * abs(digit(to, count - 1) - digit(frm, count - 1))


def column_moves(frm, to, interval):
    """Seed playAnimationWithChange: per animated column i (ones first), its moves as
    (kind, start, duration, from row, to row), times from the roll's start. Rows: the strip
    "0 1 … 9 0", row 10 is the bottom 0. Repeat 0: one ease-out move over the interval.
    Repeat r ≥ 1, up: start (ease-in) current → 10 over interval·(10 − current)/ceil(|Δ|/10^i),
    jump to row 0, r − 1 linear turns 0 → 10 of interval·10/(|Δ|/10^i) each, end (ease-out)
    0 → target over 0.7·target^0.3/(i + 1). Down mirrors it: start current → 0 over
    interval·current/ceil(…), turns 10 → 0, end 10 → target over 0.7·(10 − target)^0.3/(i + 1).
    Column i + 1 waits for the start phases of the columns below it (the carry)."""
    change = to - frm
    up = change > 0
    delay, out = 0.0, []
    for i, r in enumerate(repeat_counts(frm, to)):
        c, d = digit(frm, i), digit(to, i)
        if r == 0:
            out.append([("single", delay, interval, c, d)])
            continue
        a = abs(change) / 10 ** i
        steps = -(-abs(change) // 10 ** i)                         # ceil(|Δ| / 10^i), exact
        start = interval * ((10 - c) if up else c) / steps
        turn = interval * 10 / a
        end = BUFFER * ((d if up else 10 - d) ** 0.3) / (i + 1)
        top, bottom = (10, 0) if up else (0, 10)                   # where start ends, where turns begin
        moves = [("start", delay, start, c, top)]
        at = delay + start
        for _ in range(r - 1):
            moves.append(("turn", at, turn, bottom, top))
            at += turn
        moves.append(("end", at, end, bottom, d))
        out.append(moves)
        delay += start
    return out


def roll_duration(frm, to, interval):
    return max(s + dur for moves in column_moves(frm, to, interval) for (_, s, dur, _, _) in moves)


class Roller:
    """The digit roller of the `roller` scene: automatic columns (grow on the left up to 8),
    `changeTo {n, animated = true, interval}`. A roll is done when its last column's last move
    has ended and the re-lay of added columns (0.2 s per column, from the roll's start) too.
    A change that arrives while a roll runs waits; a newer waiting change replaces it
    (PHYSICS.md, "Digit roller timeline and queue"); it plays exactly when the running roll
    ends, from the number shown then, with its own interval (its default computed then).
    Refused (listed with a reason, nothing changes): n not an integer in 0…99,999,999 (more
    digits than 8 columns), the number already accepted (shown, or rolling to, or waiting),
    an interval outside 0.01…60 s, an `animated` that is not a boolean.
    A change that is not animated jumps when the roller is idle: its columns grow, and any
    re-lay of them is drawing only (the seed's jump neither re-lays nor sets `isAnimation`):
    nothing waits behind a jump, and no later roll's end waits for its re-lay.
    While a roll runs it waits like any other and then rolls: the seed's queue keeps no
    `animated` flag and plays every task with an animation.
    Events: `value` with `final: true` when the roller settles — its roll ends with nothing
    waiting (a roll followed at once by the waiting change has not settled: the seed's
    `isAnimation` stays YES), or at the change time for a jump — and only when the settled
    number differs from the last reported (the start, 0, counts as reported).
    Pointers and keys on the roller, and an action naming no widget in the roller scene, are
    not modelled."""

    def __init__(self, frame, n=0):
        self.id, self.frame = "roller", frame
        self.shown = self.accepted = self.reported = n
        self.columns = columns_of(n)
        self.running = None          # (from, to, start, end) of the running roll
        self.waiting = None          # (n, interval or None) of the newest waiting change
        self.events = []

    def busy(self): return self.running is not None
    def next_time(self): return self.running[3]

    def advance(self, t):
        while self.running is not None and self.running[3] <= t:
            end = self.running[3]
            self.running = None
            n, interval = self.waiting if self.waiting is not None else (self.shown, None)
            self.waiting = None
            # A waiting change to the number shown by then (rolling 0 -> 7, 4 waits, 7 replaces
            # it) is the seed's "number already shown": ignored, and the roller settles.
            if n != self.shown: self.roll(n, interval, end)
            else: self.settle(end)

    def settle(self, t):
        if self.shown != self.reported:
            self.events.append(dict(t=t, widget=self.id, type="value", value=self.shown,
                                    text=str(self.shown), final=True))
            self.reported = self.shown

    def roll(self, n, interval, t):
        frm = self.shown
        added = max(0, columns_of(n) - self.columns)
        self.columns += added
        iv = interval if interval is not None else default_interval(frm, n)
        end = t + max(roll_duration(frm, n, iv), RELAY * added)
        self.shown, self.running = n, (frm, n, t, end)

    def refusal(self, name, args):
        if name != "changeTo": return f'no action "{name}" on widget "roller"'
        n, animated, interval = args.get("n"), args.get("animated"), args.get("interval")
        if animated is None: animated = True     # null counts as absent (PROTOCOL.md)
        if isinstance(n, bool) or not isinstance(n, (int, float)) or n != math.floor(n):
            return "n must be an integer"
        if not 0 <= n <= MAX_N: return "n must be within 0…99,999,999"
        if not isinstance(animated, bool): return "animated must be a boolean"
        if interval is not None and (isinstance(interval, bool) or not isinstance(interval, (int, float))
                                     or not 0.01 <= interval <= 60):
            return "interval must be within 0.01…60 s"
        if int(n) == self.accepted: return f"{int(n)} is the number already accepted"
        return None

    def action(self, name, args, t):
        """None when performed, else the reason it was refused."""
        why = self.refusal(name, args)
        if why is not None: return why
        n, interval = int(args["n"]), args.get("interval")
        self.accepted = n
        if self.running is not None: self.waiting = (n, interval)   # animated or not: it waits
        elif args.get("animated") is not False: self.roll(n, interval, t)
        else:                        # a jump: columns grow, nothing runs, settled at once
            self.columns = max(self.columns, columns_of(n))
            self.shown = n
            self.settle(t)
        return None


class Scene:
    def __init__(self, name):
        ruler_frame, picker_y = (0, 150, 390, 128), {"demo": 300, "picker": 60, "picker-free": 60}
        self.scroll = []
        if name in ("demo", "ruler"): self.scroll.append(Ruler(ruler_frame))
        if name in ("demo", "picker", "picker-free"):
            self.scroll.append(Picker((0, picker_y[name], 390, 70), snap=name != "picker-free"))
        if name in ("demo", "carousel"):     # demo: (0, 430, 390, 150); carousel: (0, 40, 390, 150)
            self.scroll.append(Carousel((0, 430 if name == "demo" else 40, 390, 150)))
        if name == "roller": self.scroll.append(Roller((0, 40, 390, 80)))
        if not self.scroll: raise SystemExit(f"unknown scene {name!r}")
        self.name, self.captures, self.refused = name, {}, []
        self.last = {}               # captured pointer → its last sample (x, y, client time, scene time)

    def widget(self, wid):
        return next((w for w in self.scroll if w.id == wid), None)

    def under(self, x, y):
        for w in self.scroll:
            fx, fy, fw, fh = w.frame
            if fx <= x < fx + fw and fy <= y < fy + fh:
                if isinstance(w, Roller): raise NotModelled(f"a pointer or wheel on the roller at ({x}, {y})")
                return w
        return None

    def apply(self, e, t, ct):
        for w in self.scroll: w.advance(t)           # the scene advances first
        kind = e["type"]
        key = (e.get("client", "a"), e.get("pointer", 1))
        if kind == "down":
            if key in self.captures:                 # a lost up: the old gesture is cancelled first
                self.release(key, e["x"], e["y"], t, ct, True)
            w = self.under(e["x"], e["y"])
            if w is not None and any(v is w for v in self.captures.values()):
                # Fair capture (PROTOCOL.md, "Sharing a room"): held by another pointer, so this
                # one is ignored: not captured, no fall-through (nothing lies below), its later
                # lines do nothing.
                print(f"note: down {key} at {t} on {w.id}, held by another pointer: ignored", file=sys.stderr)
            elif isinstance(w, Carousel) and w.animating_to_target(t):
                # §3: a touch is ignored while the carousel animates to a target; it declines the
                # pointer, so the row is not held by it (only a captured pointer holds a widget).
                pass
            elif w is not None:
                self.captures[key] = w
                self.last[key] = (e["x"], e["y"], ct, t)
                if isinstance(w, Carousel): w.down(key, e["x"], e["y"], t, ct)
                else: w.down(key, e["x"], t, ct)
        elif kind == "move" and key in self.captures:
            w = self.captures[key]
            self.last[key] = (e["x"], e["y"], ct, t)
            if isinstance(w, Carousel): w.move(key, e["x"], e["y"], t, ct)
            else: w.move(e["x"], t, ct)
        elif kind in ("up", "cancel") and key in self.captures:
            self.release(key, e["x"], e["y"], t, ct, kind == "cancel")
        elif kind == "leave":
            # A holder that leaves (PROTOCOL.md, "Sharing a room"): each pointer the client
            # holds, in pointer-id order, lifts at T = t with a sample at its last position and
            # client time last + (T − its scene time): a still finger lifts with no velocity, a
            # moving one keeps its momentum. The carousel lifts only a horizontal drag; any
            # other gesture is cancelled (no tap).
            client = e.get("client", "a")
            for k in sorted((k for k in self.captures if k[0] == client), key=lambda k: k[1]):
                x, y, lct, lt = self.last[k]
                w = self.captures[k]
                cancel = isinstance(w, Carousel) and w.gestures[k].state != "drag"
                self.release(k, x, y, t, lct + (t - lt), cancel)
        elif kind == "wheel":
            w = self.under(e["x"], e["y"])
            if isinstance(w, Carousel): raise NotModelled("a wheel on the carousel")
            if w is not None: w.wheel(e, t)
        elif kind == "key":
            w = self.widget(e["widget"]) if "widget" in e else self.scroll[0]  # first with keys
            if isinstance(w, Roller): raise NotModelled(f"a key on the roller at {t}")
            if w is not None: w.key(e["key"], t)
        elif kind == "action":
            if "widget" not in e and isinstance(self.scroll[0], Roller):
                raise NotModelled(f"an action at {t} naming no widget in the roller scene")
            w = self.widget(e["widget"]) if "widget" in e else self.scroll[0]
            if isinstance(w, Roller):
                why = w.action(e["action"], e.get("args", {}), t)
                if why is not None: self.refused.append((e, why))
            elif isinstance(w, Carousel):
                if not w.action(e["action"], e.get("args", {}), t): self.refused.append((e, "refused by the carousel"))
            elif w is not None and e["action"] == "setValue": w.set_value(e["args"]["value"], t)
            else: self.refused.append((e, "no such widget or action"))

    def release(self, key, x, y, t, ct, cancel):
        """The captured pointer `key` lifts (or is cancelled) with the sample (x, y, ct) at t."""
        w = self.captures.pop(key)
        del self.last[key]
        if isinstance(w, Carousel): w.up(key, x, y, t, ct, cancel)
        else: w.up(x, t, ct, cancel)

    def settle(self):
        for w in self.scroll:
            while w.busy(): w.advance(w.next_time())

    def widgets(self):
        out = {}
        for w in self.scroll:
            if w.id == "ruler":
                if self.name in ("demo", "ruler"): out["readout"] = {"text": ruler_text(w.x)}
                out["ruler"] = {"value": ruler_value(w.x), "text": ruler_text(w.x)}
            elif w.id == "picker":
                out["picker"] = {"value": picker_value(w.x), "text": picker_text(w.x)}
                out["count"] = {"text": picker_text(w.x)}
            elif w.id == "roller":   # the settled number, and its buttons (no value)
                out["roller"] = {"text": str(w.shown)}
                for b in ("rollerPlus1", "rollerPlus9", "rollerPlus99", "rollerMinus1", "rollerRandom"): out[b] = {}
            else:                    # the carousel and its label: the settled selection's name
                out["carousel"] = {"text": w.label}
                out["itemName"] = {"text": w.label}
        if self.name == "demo":      # the standalone roller, untouched (0), and its buttons (no value)
            out["roller"] = {"text": "0"}
            for b in ("rollerPlus1", "rollerPlus9", "rollerPlus99", "rollerMinus1", "rollerRandom"): out[b] = {}
        return out

    def events(self):        # every widget's events, in time order (stable)
        return sorted((ev for w in self.scroll for ev in w.events), key=lambda ev: ev["t"])


def scene_name(lines):
    for l in lines:
        words = l.strip().lstrip("#").split()
        if l.lstrip().startswith("#") and len(words) == 2 and words[0] == "scene:": return words[1]
    return "demo"


def replay(path):
    lines = open(path).read().splitlines()
    scene = Scene(scene_name(lines))
    for l in lines:
        if not l.strip() or l.lstrip().startswith("#"): continue
        e = json.loads(l)
        scene.apply(e, e.get("at", e["t"]) / 1000, e["t"] / 1000)
    scene.settle()
    for e, why in scene.refused: print(f"note: refused {json.dumps(e)}: {why}", file=sys.stderr)
    out = {"widgets": scene.widgets(),
           "events": [dict(ev, t=round(ev["t"], 9)) for ev in scene.events()]}
    if scene.refused: out["refused"] = [{"line": e, "error": why} for e, why in scene.refused]
    return out


if __name__ == "__main__":
    try:
        out = replay(sys.argv[1])
    except NotModelled as error:
        raise SystemExit(f"{sys.argv[1]}: not modelled: {error}")
    print("{")
    print('  "widgets": ' + json.dumps(out["widgets"]) + ",")
    print('  "events": [')
    print(",\n".join("    " + json.dumps(e) for e in out["events"]))
    if "refused" in out:
        print("  ],")
        print('  "refused": [')
        print(",\n".join("    " + json.dumps(e) for e in out["refused"]))
    print("  ]")
    print("}")
