// Tracks (docs/PROTOCOL.md, "Tracks"): a layer's offset over room time, sent once for a whole
// glide and played here at the display's rate. Generic: knots and cubic Hermite curves between
// them, no physics and no widget. Track.swift evaluates the same track the same way.

const AXES_X = 1, AXES_Y = 2, WRAPS = 4, WIDE = 8;

/** Reads a track at byte `o` of `view`: `{ track, next }` (next: the byte after it), or null if
 *  it is malformed (no knots, unknown axes, a wrap without a period, times going back, a number
 *  not finite, cut short). */
export function readTrack(view, o) {
  if (o + 11 > view.byteLength) return null;
  const start = view.getFloat64(o, true);
  const flags = view.getUint8(o + 8);
  const axes = flags & 3;
  const count = view.getUint16(o + 9, true);
  if (axes < 1 || (flags & ~(3 | WRAPS | WIDE)) !== 0 || count === 0 || !Number.isFinite(start)) return null;
  const hasX = (axes & AXES_X) !== 0, hasY = (axes & AXES_Y) !== 0;
  // A knot's numbers: float32, or float64 in a wide track (far from the origin, or fast).
  const wide = (flags & WIDE) !== 0, n = wide ? 8 : 4;
  const size = n * (1 + (hasX ? 2 : 0) + (hasY ? 2 : 0));
  o += 11;
  let wrap = null;
  if (flags & WRAPS) {
    if (o + 8 > view.byteLength) return null;
    wrap = { upper: view.getFloat32(o, true), period: view.getFloat32(o + 4, true), x: hasX, y: hasY };
    if (!Number.isFinite(wrap.upper) || !Number.isFinite(wrap.period) || !(wrap.period > 0)) return null;
    o += 8;
  }
  if (o + count * size > view.byteLength) return null;
  const knots = [];
  for (let i = 0; i < count; i++) {
    const f = (k) => (wide ? view.getFloat64(o + 8 * k, true) : view.getFloat32(o + 4 * k, true));
    let k = 1;
    const knot = { t: f(0), x: 0, y: 0, vx: 0, vy: 0 };
    if (hasX) { knot.x = f(k); knot.vx = f(k + 1); k += 2; }
    if (hasY) { knot.y = f(k); knot.vy = f(k + 1); }
    if (![knot.t, knot.x, knot.y, knot.vx, knot.vy].every(Number.isFinite)) return null;
    if (i > 0 && !(knot.t >= knots[i - 1].t)) return null;
    knots.push(knot);
    o += size;
  }
  return { track: wrap ? { start, knots, wrap } : { start, knots }, next: o };
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
  const h = b.t - a.t, u = (s - a.t) / h, u2 = u * u, u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  return shown(
    track,
    h00 * a.x + h10 * h * a.vx + h01 * b.x + h11 * h * b.vx,
    h00 * a.y + h10 * h * a.vy + h01 * b.y + h11 * h * b.vy,
  );
}
