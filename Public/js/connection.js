// One WebSocket with reconnection: full-jitter exponential backoff, so a server
// restart is not met by every page at the same instant. The backoff resets only once
// the server has welcomed us: a server that refuses (full) is not hammered.

const SUBPROTOCOL = "scroll-widgets";
const BASE_DELAY = 250;
const MAX_DELAY = 8000;

export class Connection {
  constructor({ url, hello, onState, onText, onBinary }) {
    Object.assign(this, { url, hello, onState, onText, onBinary });
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.timer = null;
  }

  start() {
    if (this.stopped) return;
    this.onState("connecting");
    const ws = new WebSocket(this.url, SUBPROTOCOL);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify(this.hello()));
    ws.onmessage = (e) => {
      if (typeof e.data === "string") {
        let m;
        try { m = JSON.parse(e.data); } catch { return; }
        this.onText(m);
      } else {
        this.onBinary(e.data);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      const delay = Math.random() * Math.min(MAX_DELAY, BASE_DELAY * 2 ** this.attempt++);
      this.onState("offline", `${Math.max(1, Math.round(delay / 1000))} s`);
      this.timer = setTimeout(() => this.start(), delay);
    };
  }

  /** The server accepted us: the next outage starts backing off from the beginning. */
  joined() { this.attempt = 0; }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }
}
