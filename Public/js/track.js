// Tracks (docs/PROTOCOL.md, "Tracks"): a layer's offset over room time, sent once for a whole
// glide and played here at the display's rate. Generic: knots and cubic Hermite curves between
// them, or moves along timing curves (CSS's cubic-bezier), no physics and no widget. Track.swift
// and Easing.swift evaluate the same track the same way.

const AXES_X = 1, AXES_Y = 2, WRAPS = 4, WIDE = 8, EASED = 16;
// The curves CSS names (1 ease, 2 ease-in, 3 ease-out, 4 ease-in-out), a byte on the wire; in
// float32 as every curve of a track.
const NAMED_CURVES = [[0.25, 0.1, 0.25, 1], [0.42, 0, 1, 1], [0, 0, 0.58, 1], [0.42, 0, 0.58, 1]]
  .map((c) => c.map(Math.fround));

/** Reads a track at byte `o` of `view`: `{ track, next }` (next: the byte after it), or null if
 *  it is malformed (no knots, unknown axes, a wrap without a period, times going back, a number
 *  not finite, cut short). */
export function readTrack(view, o) {
  if (o + 11 > view.byteLength) return null;
  const start = view.getFloat64(o, true);
  const flags = view.getUint8(o + 8);
  const axes = flags & 3;
  const count = view.getUint16(o + 9, true);
  if (axes < 1 || (flags & ~(3 | WRAPS | WIDE | EASED)) !== 0 || count === 0 || !Number.isFinite(start)) return null;
  const hasX = (axes & AXES_X) !== 0, hasY = (axes & AXES_Y) !== 0;
  // A knot's numbers: float32, or float64 in a wide track (far from the origin, or fast); an eased
  // one has no velocities but names its curve in a byte.
  const wide = (flags & WIDE) !== 0, eased = (flags & EASED) !== 0, n = wide ? 8 : 4, per = eased ? 1 : 2;
  const size = n * (1 + (hasX ? per : 0) + (hasY ? per : 0)) + (eased ? 1 : 0);
  o += 11;
  let wrap = null;
  if (flags & WRAPS) {
    if (o + 8 > view.byteLength) return null;
    wrap = { upper: view.getFloat32(o, true), period: view.getFloat32(o + 4, true), x: hasX, y: hasY };
    if (!Number.isFinite(wrap.upper) || !Number.isFinite(wrap.period) || !(wrap.period > 0)) return null;
    o += 8;
  }
  let curves = null;
  if (eased) {
    if (o + 1 > view.byteLength) return null;
    const m = view.getUint8(o++);
    curves = [];
    for (let i = 0; i < m; i++) {
      const read = readCurve(view, o);
      if (!read) return null;
      curves.push(read.curve);
      o = read.next;
    }
  }
  if (o + count * size > view.byteLength) return null;
  const knots = [];
  for (let i = 0; i < count; i++) {
    const f = (k) => (wide ? view.getFloat64(o + 8 * k, true) : view.getFloat32(o + 4 * k, true));
    let k = 1;
    const knot = { t: f(0), x: 0, y: 0, vx: 0, vy: 0 };
    if (hasX) { knot.x = f(k); if (!eased) knot.vx = f(k + 1); k += per; }
    if (hasY) { knot.y = f(k); if (!eased) knot.vy = f(k + 1); k += per; }
    if (eased) {
      knot.curve = view.getUint8(o + n * k);
      if (knot.curve > curves.length) return null;
    }
    if (![knot.t, knot.x, knot.y, knot.vx, knot.vy].every(Number.isFinite)) return null;
    if (i > 0 && !(knot.t >= knots[i - 1].t)) return null;
    knots.push(knot);
    o += size;
  }
  const track = { start, knots };
  if (wrap) track.wrap = wrap;
  if (curves) track.curves = curves;
  return { track, next: o };
}

/** Reads a timing curve at byte `o` (a track's or a tween's: u8 its CSS name, or 0 and x1 y1 x2 y2
 *  float32): `{ curve, next }`, or null if it is malformed or cut short. */
export function readCurve(view, o) {
  if (o + 1 > view.byteLength) return null;
  const name = view.getUint8(o++);
  if (name > 0) return name > NAMED_CURVES.length ? null : { curve: NAMED_CURVES[name - 1], next: o };
  if (o + 16 > view.byteLength) return null;
  const c = [0, 1, 2, 3].map((k) => view.getFloat32(o + 4 * k, true));
  // A timing curve's x runs 0…1 (CSS), so it is a function of time.
  if (!c.every(Number.isFinite) || !(c[0] >= 0 && c[0] <= 1 && c[2] >= 0 && c[2] <= 1)) return null;
  return { curve: c, next: o + 16 };
}

/** Room time (s) at which the track stops moving. */
export function trackEnd(track) { return track.start + track.knots[track.knots.length - 1].t; }

/** A coordinate of a wrapping track as shown: within (upper − period, upper], in the same
 *  floating-point steps as Track.Wrap.shown. */
function wrapped(wrap, p) {
  const d = wrap.upper - p;
  return wrap.upper - (d - Math.floor(d / wrap.period) * wrap.period);
}

/** The point `[x, y]` of the curve as the layer shows it (wrapped on the axes the track moves). */
function shown(track, x, y) {
  const { wrap } = track;
  if (!wrap) return [x, y];
  return [wrap.x ? wrapped(wrap, x) : x, wrap.y ? wrapped(wrap, y) : y];
}

/** The offset `[x, y]` at room time `time` (s): held before the first knot and after the last. */
export function trackOffset(track, time) {
  const { knots } = track;
  const s = time - track.start;
  const first = knots[0], last = knots[knots.length - 1];
  if (s <= first.t) return shown(track, first.x, first.y);
  if (s >= last.t) return shown(track, last.x, last.y);
  // The last knot at or before s: the next one is strictly after it (a corner has two knots at one time).
  let lo = 0, hi = knots.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (knots[mid].t <= s) lo = mid; else hi = mid;
  }
  const a = knots[lo], b = knots[hi];
  const h = b.t - a.t, u = (s - a.t) / h;
  if (track.curves) {
    const f = b.curve === 0 ? u : easing(track.curves[b.curve - 1], u);
    return shown(track, a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f);
  }
  const u2 = u * u, u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  return shown(
    track,
    h00 * a.x + h10 * h * a.vx + h01 * b.x + h11 * h * b.vx,
    h00 * a.y + h10 * h * a.vy + h01 * b.y + h11 * h * b.vy,
  );
}

// A timing curve [x1, y1, x2, y2] (cubic Bézier from (0,0) to (1,1)): progress at normalised time
// u, in the same floating-point steps as CubicBezierEasing.value (Easing.swift), Newton first and
// bisection where the slope vanishes.
export function easing([x1, y1, x2, y2], u) {
  if (u <= 0) return 0;
  if (u >= 1) return 1;
  return sample(y1, y2, parameter(x1, x2, u));
}

function sample(a, b, s) {
  const r = 1 - s;
  return 3 * r * r * s * a + 3 * r * s * s * b + s * s * s;
}

function slope(a, b, s) {
  const r = 1 - s;
  return 3 * r * r * a + 6 * r * s * (b - a) + 3 * s * s * (1 - b);
}

function parameter(x1, x2, x) {
  let s = x;
  for (let i = 0; i < 8; i++) {
    const err = sample(x1, x2, s) - x;
    if (Math.abs(err) < 1e-12) return s;
    const d = slope(x1, x2, s);
    if (Math.abs(d) < 1e-9) break;
    s -= err / d;
  }
  let lo = 0, hi = 1;
  s = x;
  for (let i = 0; i < 60; i++) {
    const v = sample(x1, x2, s);
    if (Math.abs(v - x) < 1e-12) break;
    if (v < x) lo = s; else hi = s;
    s = (lo + hi) / 2;
  }
  return s;
}
