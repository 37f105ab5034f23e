// Decodes binary frames (docs/PROTOCOL.md, "Frames" and "Display list") and paints
// them. No widget logic lives here: the server decides every pixel's meaning. The one
// thing the painter knows about the viewer is its client id: ops in an "owner" run
// naming that id (the viewer's own pointer dot) are skipped, never drawn to their owner.

import { easing, readCurve, readTrack, trackEnd, trackOffset } from "./track.js";

export const FRAME_KIND = 0x46;
const ALIGN = ["left", "center", "right"];
const BASELINE = ["top", "middle", "alphabetic"];
const FONT = '"DejaVu Sans", system-ui, sans-serif';

/** Layers by id, in z-order, each `{bytes, dx, dy, track}` (its ops and the offset its scroll ops
 *  translate by: a fixed one, or a track's at the time painted); a delta frame only carries the
 *  layers that changed. `time` is the room time the newest frame was drawn at. */
/** How long a held track waits for the server's answer at most (ms): a down that was never
 *  answered (refused, or lost with its connection) must not freeze a glide for good. */
const HOLD_MS = 2000;

export class LayerStore {
  constructor() { this.order = []; this.layers = new Map(); this.seq = 0; this.time = null; this.holds = new Map(); }

  /** A catch (docs/PROTOCOL.md, "A catch"): this page's pointer went down on a widget whose
   *  glide the server says it catches, at room time `time`, as input `t`. Layer `id` is shown
   *  where its track is then until the server answers that input (`release`), or a frame gives
   *  the layer something new: the server stops the glide where the finger came down, and a
   *  browser may hold the answer back a while (Chromium, ~100 ms after a touchstart). */
  hold(id, time, t) {
    const layer = this.layers.get(id);
    if (!layer?.track || time >= trackEnd(layer.track)) return;
    this.holds.set(id, { layer, time, t, since: performance.now() });
  }

  /** `applied` answered input `t`: the holds it answers end (the frame before it showed the catch). */
  release(t) {
    for (const [id, h] of this.holds) if (h.t <= t) this.holds.delete(id);
  }

  /** The room time to show `layer` (held as `id`) at, for a paint at `at`. */
  shownAt(id, layer, at) {
    const h = this.holds.get(id);
    if (!h) return at;
    if (h.layer !== layer || performance.now() - h.since > HOLD_MS) { this.holds.delete(id); return at; }
    return Math.min(at, h.time);
  }

  /** Room time (s) until which a track still moves something, or null if none does. */
  movingUntil() {
    let end = null;
    for (const layer of this.layers.values()) {
      if (layer.track) end = Math.max(end ?? -Infinity, trackEnd(layer.track));
    }
    return end;
  }

  /** Applies one frame message; returns false if it cannot be applied. */
  apply(buffer) {
    const view = new DataView(buffer);
    if (view.byteLength < 18 || view.getUint8(0) !== FRAME_KIND) return false;
    const delta = (view.getUint8(2) & 1) !== 0;
    const seq = view.getUint32(4, true);
    // A delta's "keep" layers refer to the layers this page holds; the server sends a
    // delta only when those equal frame seq − 1 (it skips frames that change nothing).
    if (delta && this.seq === 0) return false;
    const count = view.getUint16(16, true);
    const next = new Map();
    const order = [];
    let o = 18;
    for (let i = 0; i < count; i++) {
      const id = view.getUint16(o, true);
      const kind = view.getUint8(o + 2);
      o += 3;
      if (kind === 1) { // keep: same ops, same offset
        if (!this.layers.has(id)) return false;
        next.set(id, this.layers.get(id));
      } else if (kind === 2) { // move: same ops, new offset
        if (!this.layers.has(id)) return false;
        const dx = view.getFloat32(o, true), dy = view.getFloat32(o + 4, true);
        o += 8;
        next.set(id, { bytes: this.layers.get(id).bytes, dx, dy, track: null });
      } else if (kind === 0) {
        const dx = view.getFloat32(o, true), dy = view.getFloat32(o + 4, true);
        const n = view.getUint32(o + 8, true);
        o += 12;
        if (o + n > view.byteLength) return false;
        next.set(id, { bytes: new Uint8Array(buffer, o, n), dx, dy, track: null });
        o += n;
      } else if (kind === 3 || kind === 4) { // track: same ops (3) or new ops (4), the offset on a track
        if (kind === 3 && !this.layers.has(id)) return false;
        const read = readTrack(view, o);
        if (!read) return false;
        o = read.next;
        let bytes;
        if (kind === 3) {
          bytes = this.layers.get(id).bytes;
        } else {
          if (o + 4 > view.byteLength) return false;
          const n = view.getUint32(o, true);
          o += 4;
          if (o + n > view.byteLength) return false;
          bytes = new Uint8Array(buffer, o, n);
          o += n;
        }
        next.set(id, { bytes, dx: 0, dy: 0, track: read.track });
      } else {
        return false;
      }
      order.push(id);
    }
    this.layers = next;
    this.order = order;
    this.seq = seq;
    this.time = view.getFloat64(8, true);
    return true;
  }
}

/** Paints every layer. `scale` maps scene points to CSS pixels, `dpr` CSS to device pixels;
 *  `viewer` is this page's client id (`welcome.client`): its owner runs are skipped; `time` is the
 *  room time (s) to paint tracks, pulses and tweens at (null: the newest frame's); `placed` (id → [dx, dy])
 *  gives layers another offset (prediction.js). Returns the room time until which a pulse or a tween
 *  painted goes on changing (null: none does), so the caller paints again until then. */
export function paint(ctx, store, scale, dpr, viewer = null, time = null, placed = null) {
  const at = time ?? store.time ?? 0;
  const own = viewer ? new TextEncoder().encode(viewer) : null;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  let until = null;
  for (const id of store.order) {
    ctx.setTransform(scale * dpr, 0, 0, scale * dpr, 0, 0);
    ctx.save();
    const open = { saves: 0, until: null };
    try {
      const moved = placed?.get(id);
      const layer = store.layers.get(id);
      const shown = store.shownAt(id, layer, at);
      paintOps(ctx, moved ? { bytes: layer.bytes, dx: moved[0], dy: moved[1] } : onTrack(layer, shown), open, own, shown);
    } catch {
      // A truncated layer stops where it breaks (like an unknown op); the rest still paints.
    } finally {
      // Unbalanced saves must not leak a clip or transform into the next layer.
      for (; open.saves > 0; open.saves--) ctx.restore();
      ctx.restore();
      if (open.until !== null) until = Math.max(until ?? -Infinity, open.until);
    }
  }
  return until;
}

/** The layer with the offset its track has at room time `at` (a layer without one as it is). */
function onTrack(layer, at) {
  if (!layer.track) return layer;
  const [dx, dy] = trackOffset(layer.track, at);
  return { bytes: layer.bytes, dx, dy };
}

/** Stands in for the canvas while an owner run naming the viewer is read: every call and
 *  assignment is dropped, so the run's operands are still read (and skipped) exactly once. */
const NOWHERE = new Proxy({}, { get: () => () => {}, set: () => true });

/** Paints one layer (`{bytes, dx, dy}`) at room time `time`, counting its unmatched saves in
 *  `open.saves` and noting in `open.until` when a pulse or a tween it drew stops changing. `own` is the
 *  viewer's client id as UTF-8 (or null): ops of an owner run naming it are read but not painted. */
function paintOps(canvas, layer, open, own, time) {
  const { bytes, dx, dy } = layer;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let ctx = canvas; // NOWHERE inside the viewer's own run
  const f = (at) => v.getFloat32(at, true);
  const rgba = (at) => `rgba(${v.getUint8(at)},${v.getUint8(at + 1)},${v.getUint8(at + 2)},${v.getUint8(at + 3) / 255})`;
  const decoder = new TextDecoder();
  // The horizontal moves of the tweens the ops are in, per save: lenses and graded runs see
  // where the layer shows them (its offset and those moves).
  const shifts = [0];
  let shift = 0;
  const saved = () => shifts.push(shift);
  const restored = () => { if (shifts.length > 1) shift = shifts.pop(); };
  let o = 0;
  while (o < v.byteLength) {
    const op = v.getUint8(o++);
    switch (op) {
      case 0x01: if (ctx === canvas) { ctx.save(); open.saves++; saved(); } break;
      // never pop the layer's own save
      case 0x02: if (ctx === canvas && open.saves > 0) { ctx.restore(); open.saves--; restored(); } break;
      case 0x03: ctx.translate(f(o), f(o + 4)); o += 8; break;
      case 0x04: ctx.beginPath(); ctx.rect(f(o), f(o + 4), f(o + 8), f(o + 12)); ctx.clip(); o += 16; break;
      case 0x05: ctx.fillStyle = rgba(o); o += 4; break;
      case 0x06: ctx.strokeStyle = rgba(o); ctx.lineWidth = f(o + 4); o += 8; break;
      case 0x07: ctx.fillRect(f(o), f(o + 4), f(o + 8), f(o + 12)); o += 16; break;
      case 0x08:
        ctx.beginPath(); ctx.moveTo(f(o), f(o + 4)); ctx.lineTo(f(o + 8), f(o + 12)); ctx.stroke();
        o += 16; break;
      case 0x09: {
        const x = f(o), y = f(o + 4), size = f(o + 8);
        ctx.textAlign = ALIGN[v.getUint8(o + 12)] || "left";
        ctx.textBaseline = BASELINE[v.getUint8(o + 13)] || "alphabetic";
        ctx.font = `${v.getUint8(o + 14) === 1 ? "bold " : ""}${size}px ${FONT}`;
        const n = v.getUint16(o + 15, true);
        ctx.fillText(decoder.decode(bytes.subarray(o + 17, o + 17 + n)), x, y);
        o += 17 + n; break;
      }
      case 0x0A:
        ctx.beginPath(); ctx.roundRect(f(o), f(o + 4), f(o + 8), f(o + 12), f(o + 16)); ctx.fill();
        o += 20; break;
      case 0x0B: ctx.beginPath(); ctx.arc(f(o), f(o + 4), f(o + 8), 0, 2 * Math.PI); ctx.fill(); o += 12; break;
      case 0x0C: {
        const n = v.getUint8(o++);
        ctx.beginPath();
        for (let i = 0; i < n; i++) {
          const x = f(o + 8 * i), y = f(o + 8 * i + 4);
          if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
        }
        ctx.closePath(); ctx.fill(); o += 8 * n; break;
      }
      case 0x0D: ctx.scale(f(o), f(o + 4)); o += 8; break;
      case 0x12: { // small polygon: centre, unit, then i8 points around it
        const cx = f(o), cy = f(o + 4), unit = f(o + 8), n = v.getUint8(o + 12);
        o += 13;
        ctx.beginPath();
        for (let i = 0; i < n; i++) {
          const x = cx + v.getInt8(o + 2 * i) * unit, y = cy + v.getInt8(o + 2 * i + 1) * unit;
          if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
        }
        ctx.closePath(); ctx.fill(); o += 2 * n; break;
      }
      case 0x0E: ctx.globalAlpha = f(o); o += 4; break;
      case 0x0F: { // owner: u8 n, n bytes UTF-8 client id; the ops up to the next owner op are that client's
        const n = v.getUint8(o++);
        if (o + n > v.byteLength) return;
        ctx = own !== null && n > 0 && sameBytes(bytes, o, n, own) ? NOWHERE : canvas;
        o += n; break;
      }
      case 0x10: ctx.translate(dx, dy); break; // scroll: by the layer's offset
      case 0x11: { // line run: one path, one stroke, for a row of ticks
        const x0 = f(o), y0 = f(o + 4), x1 = f(o + 8), y1 = f(o + 12), sx = f(o + 16), sy = f(o + 20);
        const n = v.getUint16(o + 24, true), every = v.getUint8(o + 26), phase = v.getUint8(o + 27);
        ctx.beginPath();
        for (let i = 0; i < n; i++) {
          if (every > 0 && i % every === phase) continue;
          ctx.moveTo(x0 + i * sx, y0 + i * sy); ctx.lineTo(x1 + i * sx, y1 + i * sy);
        }
        ctx.stroke(); o += 28; break;
      }
      case 0x13: { // graded run: marks sized and filled by their distance from the focus as shown
        const x0 = f(o), y = f(o + 4), step = f(o + 8), n = v.getUint16(o + 12, true), focus = f(o + 14);
        const grades = v.getUint8(o + 18);
        o += 19;
        ctx.save(); // the marks' fills are theirs alone
        for (let i = 0; i < n; i++) {
          const x = x0 + i * step, d = Math.abs(x + dx + shift - focus);
          for (let g = 0; g < grades; g++) {
            const at = o + 16 * g;
            if (!(d < f(at))) continue;
            const w = f(at + 4), h = f(at + 8);
            ctx.fillStyle = rgba(at + 12);
            ctx.fillRect(x - w / 2, y - h / 2, w, h);
            break;
          }
        }
        ctx.restore();
        o += 16 * grades; break;
      }
      case 0x15: { // lens: a save, then a scale and a shift by where the layer shows the centre
        const cx = f(o), cy = f(o + 4), focus = f(o + 8), n = v.getUint8(o + 12);
        o += 13;
        const d = Math.abs(cx + dx + shift - focus);
        let s = 1, down = 0;
        if (n > 0) {
          // The last knot at or before d (the later of two at one d), then linear to the next.
          let i = 0;
          while (i + 1 < n && f(o + 12 * (i + 1)) <= d) i++;
          const k = (j) => [f(o + 12 * j), f(o + 12 * j + 4), f(o + 12 * j + 8)];
          const [d0, s0, y0] = k(i);
          if (d < d0 || i + 1 >= n) { s = s0; down = y0; } else {
            const [d1, s1, y1] = k(i + 1), u = (d - d0) / (d1 - d0);
            s = s0 + (s1 - s0) * u; down = y0 + (y1 - y0) * u;
          }
        }
        o += 12 * n;
        if (ctx === canvas) { ctx.save(); open.saves++; saved(); }
        ctx.translate(cx, cy + down); ctx.scale(s, s); ctx.translate(-cx, -cy);
        break;
      }
      case 0x17: { // tween: a save, then a move, a scale and a fade over room time along a curve
        const start = v.getFloat64(o, true), duration = f(o + 8);
        const read = readCurve(v, o + 12);
        if (!read || !Number.isFinite(start) || !(duration >= 0) || !Number.isFinite(duration)) return;
        o = read.next;
        const parts = v.getUint8(o++);
        if (parts & ~7) return;
        const size = (parts & 1 ? 16 : 0) + (parts & 2 ? 16 : 0) + (parts & 4 ? 8 : 0);
        if (o + size > v.byteLength) return;
        // Before its start 0, from its end on 1 (a tween of no duration is at its end at once).
        const e = time < start ? 0 : !(duration > 0) || time >= start + duration ? 1 : easing(read.curve, (time - start) / duration);
        if (time < start + duration) open.until = Math.max(open.until ?? -Infinity, start + duration);
        // A pair (from, to) at `at`, or a move's coordinate (from at `at`, to 8 bytes on).
        const mix = (at, gap = 4) => f(at) + (f(at + gap) - f(at)) * e;
        if (ctx === canvas) { ctx.save(); open.saves++; saved(); }
        if (parts & 1) {
          const tx = mix(o, 8), ty = mix(o + 4, 8);
          ctx.translate(tx, ty);
          if (ctx === canvas) shift += tx;
          o += 16;
        }
        if (parts & 2) {
          const cx = f(o), cy = f(o + 4), s = mix(o + 8);
          ctx.translate(cx, cy); ctx.scale(s, s); ctx.translate(-cx, -cy);
          o += 16;
        }
        if (parts & 4) { ctx.globalAlpha *= Math.min(Math.max(mix(o), 0), 1); o += 8; }
        break;
      }
      case 0x16: { // number run: whole numbers as text in a row, wrapped into lo…hi (none when lo > hi)
        const x0 = f(o), y0 = f(o + 4), sx = f(o + 8), sy = f(o + 12), size = f(o + 16);
        ctx.textAlign = ALIGN[v.getUint8(o + 20)] || "left";
        ctx.textBaseline = BASELINE[v.getUint8(o + 21)] || "alphabetic";
        ctx.font = `${v.getUint8(o + 22) === 1 ? "bold " : ""}${size}px ${FONT}`;
        const n = v.getUint16(o + 23, true), first = v.getInt32(o + 25, true), step = v.getInt32(o + 29, true);
        const lo = v.getInt32(o + 33, true), hi = v.getInt32(o + 37, true), period = hi - lo + 1;
        for (let i = 0; i < n; i++) {
          // Within ±2^47: exact in doubles.
          const k = first + i * step;
          const shown = lo <= hi ? lo + (((k - lo) % period) + period) % period : k;
          ctx.fillText(String(shown), x0 + i * sx, y0 + i * sy);
        }
        o += 41; break;
      }
      case 0x14: { // pulse: a disc from each start, growing and fading for its duration
        const cx = f(o), cy = f(o + 4), r0 = f(o + 8), r1 = f(o + 12), a0 = f(o + 16), a1 = f(o + 20);
        const duration = f(o + 24), color = o + 28, base = v.getFloat64(o + 32, true), n = v.getUint16(o + 40, true);
        o += 42;
        let start = null;
        for (let i = 0; i < n; i++) {
          const s = base + f(o + 4 * i);
          if (s <= time) start = s;
        }
        if (n > 0) {
          const last = base + f(o + 4 * (n - 1));
          if (last + duration > time) open.until = Math.max(open.until ?? -Infinity, last + duration);
        }
        o += 4 * n;
        const age = start === null || !(duration > 0) ? 1 : (time - start) / duration;
        if (age >= 1) break;
        const alpha = Math.min(Math.max(a0 + (a1 - a0) * age, 0), 1);
        ctx.save();
        ctx.fillStyle = `rgba(${v.getUint8(color)},${v.getUint8(color + 1)},${v.getUint8(color + 2)},${v.getUint8(color + 3) / 255 * alpha})`;
        ctx.beginPath(); ctx.arc(cx, cy, Math.abs(r0 + (r1 - r0) * age), 0, 2 * Math.PI); ctx.fill();
        ctx.restore();
        break;
      }
      default: return; // unknown op: stop this layer rather than misread the rest
    }
  }
}

function sameBytes(bytes, at, n, other) {
  if (n !== other.length) return false;
  for (let i = 0; i < n; i++) if (bytes[at + i] !== other[i]) return false;
  return true;
}
