// The room's time on this page's clock (docs/PROTOCOL.md, "Tracks": time base). Tracks are in
// room time; the page plays them at `now()`. Every frame says the room time it was drawn at, and
// it was sent no earlier: so room time − arrival time, at its largest over recent frames, is the
// clocks' difference less the one-way delay, which is taken as half the smallest recent round
// trip (pings). The error bound is that half round trip: the delay each way may differ by that much.

const WINDOW_MS = 20000;

export class RoomClock {
  constructor() { this.frames = []; this.trips = []; }

  /** A frame drawn at room time `roomTime` (s) arrived at `at` (performance.now(), ms). */
  frameArrived(roomTime, at) {
    if (!Number.isFinite(roomTime)) return;
    this.frames.push([at, roomTime * 1000 - at]);
    trim(this.frames, at);
  }

  /** A ping sent at `sent` came back at `at` (both performance.now(), ms). */
  roundTrip(sent, at) {
    if (!Number.isFinite(sent) || at < sent) return;
    this.trips.push([at, at - sent]);
    trim(this.trips, at);
  }

  /** Forgets everything (another connection: another room, another clock). */
  reset() { this.frames = []; this.trips = []; }

  /** Half the smallest recent round trip (ms), or null before the first pong. */
  oneWay() { return this.trips.length ? Math.min(...this.trips.map((s) => s[1])) / 2 : null; }

  /** How far `now()` may be from the room's time (ms), or null while unknown. */
  error() { return this.frames.length ? this.oneWay() : null; }

  /** The room time (s) at `at` (performance.now(), ms), or null before the first frame. */
  now(at = performance.now()) {
    if (!this.frames.length) return null;
    const lead = Math.max(...this.frames.map((s) => s[1]));
    return (at + lead + (this.oneWay() ?? 0)) / 1000;
  }
}

/** Keeps the last WINDOW_MS of samples (and always the newest). */
function trim(samples, now) {
  let n = 0;
  while (n < samples.length - 1 && samples[n][0] < now - WINDOW_MS) n++;
  if (n > 0) samples.splice(0, n);
}
