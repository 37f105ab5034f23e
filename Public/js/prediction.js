// Drag prediction (docs/PROTOCOL.md, "Prediction"; opt-in: ?predict=1, <scroll-widget predict>).
// While this page's pointer holds a widget whose layer the server says follows it (`applied`'s
// `follow`), the layer is shown moved by the pointer's movement since the input the newest frame
// applied, within the bounds the server gave, and every frame replaces the guess. At the release
// the server's track takes over where the finger was shown: it is played late by the time it took
// to come, a lag that melts away over CATCH_UP_MS. Nothing here knows a widget, a physics constant
// or a snapping rule: a layer, an axis, a ratio and bounds, all the server's.

import { trackOffset } from "./track.js";

const CATCH_UP_MS = 250;
/** Input times remembered (their pointer positions), oldest forgotten first. */
const SAMPLES_KEPT = 256;

export class Prediction {
  constructor() {
    this.samples = new Map(); // input t → [x, y]: the newest sample of a pointer message sent
    this.pointer = null; // [x, y] of the newest pointer sample sent (held where the up was after it)
    this.follow = null; // { layer, axis, ratio, min, max, base: [x, y] } from `applied`
    this.catchUp = null; // { layer, lag (s), at (performance.now()) } after a release
    this.shownBeforeFrame = null; // what the layer showed just before a frame moved it
    this.frameLayer = null; // the predicted layer as it was before that frame
    this.awaiting = null; // performance.now() of a frame that moved the layer; its `applied` is next
    this.stats = { corrections: 0, maxCorrection: 0, releaseCorrection: null, shift: 0 };
  }

  /** A message this page sent. */
  sent(m) {
    if (m.type !== "pointer") return;
    const last = m.coalesced ? m.coalesced[m.coalesced.length - 1] : [m.x, m.y];
    this.samples.set(m.t, [last[0], last[1]]);
    // A new gesture: nothing is shown moved until the server says this pointer holds something.
    if (m.phase === "down") this.follow = null;
    if (this.samples.size > SAMPLES_KEPT) this.samples.delete(this.samples.keys().next().value);
    // After the lift the finger is where the up was: the guess stays there until the server answers.
    this.pointer = [last[0], last[1]];
  }

  /** Whether a layer is being shown moved (the page repaints on each pointer move then). */
  get active() { return this.follow !== null; }

  /** A frame is about to replace the layers (`store` before it). */
  frameComing(store) {
    if (!this.follow || !this.pointer) return;
    const layer = store.layers.get(this.follow.layer);
    this.shownBeforeFrame = layer && !layer.track ? this.shown(layer) : null;
    this.frameLayer = layer;
  }

  /** The frame was applied: if it moved the predicted layer, its `applied` comes next; until then
   *  the page does not paint it with the old guess on top. */
  frameApplied(store) {
    if (!this.follow) return;
    const layer = store.layers.get(this.follow.layer);
    if (layer && this.frameLayer && (layer.dx !== this.frameLayer.dx || layer.dy !== this.frameLayer.dy)) {
      this.awaiting = performance.now();
    }
  }

  /** `applied` (after the frame that shows input `t`), with the server's `follow` if still held. */
  applied(m, store, roomTime) {
    this.awaiting = null;
    const before = this.follow;
    const base = this.samples.get(m.t);
    const f = m.follow;
    const valid = f && Number.isInteger(f.layer) && (f.axis === "x" || f.axis === "y") &&
      [f.ratio, f.min, f.max].every(Number.isFinite) && f.min <= f.max;
    if (valid && base && this.pointer) {
      this.follow = { layer: f.layer, axis: f.axis, ratio: f.ratio, min: f.min, max: f.max, base };
      const layer = store.layers.get(f.layer);
      if (before && before.layer === f.layer && layer && this.shownBeforeFrame !== null) {
        this.noteCorrection(Math.abs(this.shown(layer) - this.shownBeforeFrame), false);
      }
    } else {
      this.follow = null;
      // Let go: the layer now plays the server's track (or rests); it starts where the finger was
      // shown, late by however long it took to come.
      const layer = before ? store.layers.get(before.layer) : null;
      if (before && layer) {
        if (layer.track && roomTime !== null) {
          this.catchUp = { layer: before.layer, lag: Math.max(0, roomTime - layer.track.start), at: performance.now() };
        }
        const at = layer.track ? (roomTime ?? 0) - (this.catchUp?.lag ?? 0) : 0;
        const now = layer.track ? offsetOf(layer, at)[before.axis === "x" ? 0 : 1] : (before.axis === "x" ? layer.dx : layer.dy);
        if (this.shownBeforeFrame !== null) this.noteCorrection(Math.abs(now - this.shownBeforeFrame), true);
      }
    }
    this.shownBeforeFrame = null;
    this.frameLayer = null;
  }

  noteCorrection(size, release) {
    this.stats.corrections += 1;
    if (release) this.stats.releaseCorrection = size;
    else this.stats.maxCorrection = Math.max(this.stats.maxCorrection, size);
  }

  /** Whether painting should wait for the `applied` of a frame that moved the predicted layer
   *  (at most 100 ms: a frame without one never holds the page up). */
  holdsPaint() { return this.awaiting !== null && performance.now() - this.awaiting < 100; }

  /** The predicted layer's offset on its axis, as shown with the newest pointer sample. */
  shown(layer) {
    const f = this.follow;
    const i = f.axis === "x" ? 0 : 1;
    const offset = i === 0 ? layer.dx : layer.dy;
    const moved = f.ratio * (this.pointer[i] - f.base[i]);
    return Math.min(f.max, Math.max(f.min, offset + moved));
  }

  /** Offsets to paint instead of the layers' own (id → [dx, dy]), at room time `roomTime`. */
  placements(store, roomTime) {
    const out = new Map();
    const f = this.follow;
    const held = f ? store.layers.get(f.layer) : null;
    if (f && held && !held.track && this.pointer) {
      const v = this.shown(held);
      out.set(f.layer, f.axis === "x" ? [v, held.dy] : [held.dx, v]);
      this.stats.shift = v - (f.axis === "x" ? held.dx : held.dy);
    }
    const c = this.catchUp;
    if (c && roomTime !== null) {
      const layer = store.layers.get(c.layer);
      const left = 1 - (performance.now() - c.at) / CATCH_UP_MS;
      if (!layer?.track || left <= 0) this.catchUp = null;
      else out.set(c.layer, offsetOf(layer, roomTime - c.lag * left));
    }
    return out;
  }

  /** Whether it still needs painting every display frame (catching up on a track). */
  get moving() { return this.catchUp !== null; }
}

function offsetOf(layer, time) {
  return layer.track ? trackOffset(layer.track, time) : [layer.dx, layer.dy];
}
