// The room's time on this page (docs/PROTOCOL.md, "Tracks": time base). Tracks are in room time;
// the page plays them at `now()`. Every frame says the room time it was drawn at, and it is sent no
// earlier: so over recent frames the largest `room time − arrival time` is the clocks' difference
// less the smallest one-way delay, and `now()` is the room's time as the fastest frame shows it.
// A track then plays exactly as late as the frames that come fastest, so a glide hands over to what
// follows it (a catch, a key, the rest) where the page already is. How late that is (at most half
// the round trip) the HUD shows while it pings.

const WINDOW_MS = 20000;

export class RoomClock {
  constructor() { this.samples = []; }

  /** A frame drawn at room time `roomTime` (s) arrived at `at` (performance.now(), ms). */
  frameArrived(roomTime, at) {
    if (!Number.isFinite(roomTime) || !Number.isFinite(at)) return;
    this.samples.push([at, roomTime * 1000 - at]);
    let n = 0;
    while (n < this.samples.length - 1 && this.samples[n][0] < at - WINDOW_MS) n++;
    if (n > 0) this.samples.splice(0, n);
  }

  /** Forgets everything: another connection, or another welcome (a room made again elsewhere
   *  starts its time again). */
  reset() { this.samples = []; }

  /** The room time (s) at `at` (performance.now(), ms), or null before the first frame. */
  now(at = performance.now()) {
    if (!this.samples.length) return null;
    let lead = -Infinity;
    for (const s of this.samples) lead = Math.max(lead, s[1]);
    return (at + lead) / 1000;
  }
}
