// One WebSocket with reconnection: full-jitter exponential backoff, so a server
// restart is not met by every page at the same instant. The backoff resets only once
// the server has welcomed us: a server that refuses (full) is not hammered. A page that
// comes back (its tab shown again, restored from the back-forward cache, or the network back
// online) does not wait out the backoff: it tries at once.
//
// `latency` (ms, default 0) simulates a slow network, like Phoenix LiveView's
// `liveSocket.enableLatencySim`: everything the page sends (hello included) and everything
// it receives (the close too) is held that long, in order. Off (0) nothing is delayed.

const SUBPROTOCOL = "scroll-widgets";
const BASE_DELAY = 250;
const MAX_DELAY = 8000;

/** What each close code the server sends means to the user (docs/PROTOCOL.md, "Close codes"). */
const CLOSE_REASONS = {
  1001: "Server restarting — reconnecting",
  1007: "The server could not read a message — reconnecting",
  1008: "Closed by the server — reconnecting",
  1009: "Message too large for the server — reconnecting",
  1012: "Room moved to another server — reconnecting",
  1013: "Server full — retrying",
};

/** The status while offline: why the socket closed (its code), and when the next try is. */
export function offlineText(code, retryIn) {
  return `${CLOSE_REASONS[code] ?? "Offline — retrying"} in ${retryIn}`;
}

export class Connection {
  /**
   * @param {object} options
   *   `url`, `hello()` (the hello message, made when it is sent), `onState(state, detail, code)`
   *   (offline: `detail` is the wait before the next try, `code` the close code),
   *   `onText(message)` (parsed JSON), `onBinary(arrayBuffer)`; optional: `latency` (ms each
   *   way, default 0) and `onReceived(bytes, binary)` (each message's size as it is handed on:
   *   a binary frame's byte length, a text's length in UTF-16 units).
   */
  constructor({ url, hello, onState, onText, onBinary, latency = 0, onReceived = null }) {
    Object.assign(this, { url, hello, onState, onText, onBinary, onReceived });
    this.latency = Math.max(0, Number(latency) || 0);
    this.outbox = new DelayLine(this.latency);
    this.inbox = new DelayLine(this.latency);
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.timer = null;
    this.watching = false;
    this.lifecycle = (e) => {
      if (e.type === "pagehide") {
        // Into the back-forward cache: the browser closes the socket, and may tell the page
        // only once it is shown again. Closed now, the server knows at once, and the page,
        // restored, reconnects instead of waiting for that close.
        if (e.persisted) this.suspend();
        return;
      }
      if (e.type === "visibilitychange" && document.visibilityState !== "visible") return;
      if (e.type === "pageshow" && !e.persisted) return;
      this.retryNow();
    };
  }

  start() {
    if (this.stopped) return;
    this.watch(true);
    this.onState("connecting");
    const ws = new WebSocket(this.url, SUBPROTOCOL);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => this.outbox.run(() => { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(this.hello())); });
    ws.onmessage = (e) => this.inbox.run(() => {
      if (this.ws !== ws) return;
      const text = typeof e.data === "string";
      this.onReceived?.(text ? e.data.length : e.data.byteLength, !text);
      if (text) {
        let m;
        try { m = JSON.parse(e.data); } catch { return; }
        this.onText(m);
      } else {
        this.onBinary(e.data);
      }
    });
    ws.onclose = (e) => this.inbox.run(() => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      const delay = Math.random() * Math.min(MAX_DELAY, BASE_DELAY * 2 ** this.attempt++);
      this.onState("offline", `${Math.max(1, Math.round(delay / 1000))} s`, e.code);
      this.timer = setTimeout(() => this.start(), delay);
    });
  }

  /** The server accepted us: the next outage starts backing off from the beginning. */
  joined() { this.attempt = 0; }

  /** True while a socket is open (messages sent now go out, after the simulated latency). */
  get open() { return this.ws?.readyState === WebSocket.OPEN; }

  stop() {
    this.stopped = true;
    this.watch(false);
    clearTimeout(this.timer);
    this.ws?.close(1000);
  }

  /** Connects now instead of when the backoff says, unless a socket is open or opening. A
   *  failed try backs off from where the backoff was. */
  retryNow() {
    if (this.stopped || this.ws) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.start();
  }

  /** Closes the socket, quietly (its close is not reported), and waits for `retryNow`. */
  suspend() {
    const ws = this.ws;
    this.ws = null; // its close, when it comes, is ignored: the handler sees another socket
    ws?.close(1000);
    clearTimeout(this.timer);
    this.timer = null;
  }

  /** The page events after which the network may be back, and the page going into the cache. */
  watch(on) {
    if (on === this.watching) return;
    this.watching = on;
    const method = on ? "addEventListener" : "removeEventListener";
    document[method]("visibilitychange", this.lifecycle);
    for (const type of ["pageshow", "pagehide", "online"]) window[method](type, this.lifecycle);
  }

  /** Sends `message` as JSON if the socket is open; returns whether it was sent (or queued). */
  send(message) {
    const ws = this.ws;
    if (ws?.readyState !== WebSocket.OPEN) return false;
    const text = JSON.stringify(message);
    this.outbox.run(() => { if (ws.readyState === WebSocket.OPEN) ws.send(text); });
    return true;
  }
}

/** Runs callbacks `delay` ms after they are given, in the order given; at once when `delay` is 0. */
class DelayLine {
  constructor(delay) { this.delay = delay; this.queue = []; this.timer = null; }

  run(fn) {
    if (this.delay <= 0) { fn(); return; }
    this.queue.push({ at: performance.now() + this.delay, fn });
    if (this.timer === null) this.schedule();
  }

  schedule() {
    this.timer = setTimeout(() => this.flush(), Math.max(0, this.queue[0].at - performance.now()));
  }

  flush() {
    this.timer = null;
    // Timers may fire a little early (they count whole milliseconds): what is not due waits.
    while (this.queue.length > 0 && this.queue[0].at <= performance.now()) {
      const { fn } = this.queue.shift();
      try { fn(); } catch (e) { reportError(e); }
    }
    if (this.queue.length > 0) this.schedule();
  }
}
