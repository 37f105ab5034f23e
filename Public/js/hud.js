// The heads-up display: how the page is doing, measured on the page. Toggled with the `h` key
// and its button; whether it is shown is remembered in localStorage. While shown it pings the
// server every second and refreshes twice a second. Its figures are also on <html> for tests:
//   data-hud          "shown" | "hidden"
//   data-hud-fps      frames painted in the last second
//   data-hud-rtt      the newest ping → pong round trip (ms)
//   data-hud-latency  input-to-frame latency (ms): the median of the last 15 inputs, each from
//                     the input being sent to the arrival of the frame the server's `applied`
//                     naming it comes right after (absent until there is one)
//   data-hud-bps      bytes received in the last second (frames, and text as UTF-16 units)
//   data-hud-skipped  frames skipped by "latest wins" since the page loaded: the seq gap
//                     before each full frame that follows another frame of the same theme
//                     (a delta's gap is only frames that changed nothing, never sent; a
//                     theme or motion change and a reconnect start a new count of seq)
//   data-hud-latency-sim  the simulated latency (ms), when ?latency= turned it on
//   data-hud-clock    at most how far behind the server the page's room clock runs (ms): half
//                     the round trip (tracks play on it, as late as the fastest frames come)

const STORAGE = "scroll-widgets.hud";
const WINDOW_MS = 1000;
const PING_MS = 1000;
const REFRESH_MS = 500;
const LATENCY_SAMPLES = 15;
/** Inputs remembered until applied; older ones are forgotten first. */
const MAX_PENDING = 512;

export class Hud {
  /**
   * @param {{ panel: HTMLElement, button: HTMLButtonElement, root: HTMLElement, latencySim: number,
   *   ping: (message: object) => boolean }} options  `ping` sends a message if connected.
   */
  constructor({ panel, button, root, latencySim = 0, ping }) {
    Object.assign(this, { panel, button, root, latencySim, ping });
    this.paints = [];
    this.bytes = [];
    this.rtt = null;
    this.latencies = [];
    this.sent = new Map(); // input t → performance.now() when sent, in sending order
    this.lastFrameAt = null; // arrival of the latest frame (its `applied` comes right after it)
    this.skipped = 0;
    this.lastSeq = 0;
    this.awaitFull = true;
    this.connected = false;
    this.pingTimer = null;
    this.refreshTimer = null;
    this.cells = Object.fromEntries([...panel.querySelectorAll("[data-figure]")].map((el) => [el.dataset.figure, el]));
    if (latencySim > 0) root.dataset.hudLatencySim = String(latencySim);
    button.addEventListener("click", () => this.toggle());
    this.show(load() === "shown");
  }

  get shown() { return !this.panel.hidden; }

  toggle() {
    this.show(!this.shown);
    save(this.shown ? "shown" : "hidden");
  }

  show(on) {
    this.panel.hidden = !on;
    this.button.setAttribute("aria-pressed", String(on));
    this.root.dataset.hud = on ? "shown" : "hidden";
    clearInterval(this.refreshTimer);
    this.refreshTimer = null;
    if (on) {
      this.refreshTimer = setInterval(() => this.publish(), REFRESH_MS);
      this.publish();
    }
    this.schedulePings();
  }

  /** Connected (welcomed) or not: pings go out only while connected and shown. */
  setConnected(on) {
    this.connected = on;
    this.schedulePings();
  }

  schedulePings() {
    const want = this.shown && this.connected;
    if (want === (this.pingTimer !== null)) return;
    if (!want) { clearInterval(this.pingTimer); this.pingTimer = null; return; }
    const ping = () => this.ping({ type: "ping", t: performance.now() });
    this.pingTimer = setInterval(ping, PING_MS);
    ping();
  }

  pong(t) {
    if (typeof t !== "number") return;
    this.rtt = performance.now() - t;
    if (this.shown) this.publish();
  }

  /** An input message with client time `t` was just sent. */
  inputSent(t) {
    this.sent.set(t, performance.now());
    if (this.sent.size > MAX_PENDING) this.sent.delete(this.sent.keys().next().value);
  }

  /** The server applied this page's input `t` (and every one sent before it); the frame that
   * arrived just before this message is the first to show it. */
  applied(t) {
    if (typeof t !== "number" || this.lastFrameAt === null) return;
    // JSON carries the number back exactly; the tolerance only guards against a rounding server.
    const same = (key) => Math.abs(key - t) <= 1e-6 * Math.max(1, Math.abs(t));
    if (![...this.sent.keys()].some(same)) return;
    for (const [key, at] of this.sent) {
      this.sent.delete(key);
      if (!same(key)) continue;
      this.latencies.push(this.lastFrameAt - at);
      if (this.latencies.length > LATENCY_SAMPLES) this.latencies.shift();
      return;
    }
  }

  /** A binary frame arrived (before it is painted). */
  frame(buffer) {
    this.lastFrameAt = performance.now();
    if (buffer.byteLength < 8) return;
    const view = new DataView(buffer);
    const delta = (view.getUint8(2) & 1) !== 0;
    const seq = view.getUint32(4, true);
    if (this.awaitFull) {
      // After a reconnect or a theme change the new seq starts with a full frame; deltas
      // still on their way continue the old one.
      if (delta) return;
      this.awaitFull = false;
    } else if (!delta && seq > this.lastSeq + 1) {
      this.skipped += seq - this.lastSeq - 1;
    }
    this.lastSeq = seq;
  }

  /** The frame seq starts again (reconnected, or another theme or motion preference). */
  restartSeq() { this.awaitFull = true; }

  painted() { this.paints.push(performance.now()); trim(this.paints, (at) => at); }

  received(bytes) { this.bytes.push([performance.now(), bytes]); trim(this.bytes, (b) => b[0]); }

  publish() {
    const now = performance.now();
    trim(this.paints, (at) => at, now);
    trim(this.bytes, (b) => b[0], now);
    const fps = this.paints.length;
    const bps = this.bytes.reduce((sum, b) => sum + b[1], 0);
    const latency = median(this.latencies);
    const d = this.root.dataset;
    d.hudFps = String(fps);
    d.hudBps = String(bps);
    d.hudSkipped = String(this.skipped);
    if (this.rtt === null) delete d.hudRtt; else d.hudRtt = this.rtt.toFixed(1);
    if (latency === null) delete d.hudLatency; else d.hudLatency = latency.toFixed(1);
    if (this.rtt === null) delete d.hudClock; else d.hudClock = (this.rtt / 2).toFixed(1);
    this.set("fps", `${fps} fps`);
    this.set("rtt", this.rtt === null ? "–" : `${Math.round(this.rtt)} ms`);
    this.set("latency", latency === null ? "–" : `${Math.round(latency)} ms median`);
    this.set("bps", formatBytes(bps));
    this.set("skipped", String(this.skipped));
    this.set("clock", this.rtt === null ? "–" : `≤ ${Math.round(this.rtt / 2)} ms behind`);
    this.set("sim", this.latencySim > 0 ? `+${this.latencySim} ms simulated` : "off");
  }

  set(name, text) {
    const el = this.cells[name];
    if (el && el.textContent !== text) el.textContent = text;
  }
}

/** Drops the entries of `list` (oldest first) older than a second before `now`. */
function trim(list, time, now = performance.now()) {
  let n = 0;
  while (n < list.length && time(list[n]) < now - WINDOW_MS) n++;
  if (n > 0) list.splice(0, n);
}

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function formatBytes(n) {
  if (n < 1000) return `${n} B/s`;
  if (n < 1e6) return `${(n / 1000).toFixed(1)} kB/s`;
  return `${(n / 1e6).toFixed(2)} MB/s`;
}

// localStorage may be missing or refuse access (privacy settings, sandboxed frames).
function load() {
  try { return globalThis.localStorage?.getItem(STORAGE) ?? null; } catch { return null; }
}

function save(value) {
  try { globalThis.localStorage?.setItem(STORAGE, value); } catch { /* not remembered */ }
}
