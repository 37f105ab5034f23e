// One scene of a widget server, shown on a canvas: the client the demo page (app.js) and
// <scroll-widget> (embed.js) share. It connects (hello, welcome, the protocol version), forwards
// input, keeps the frames and paints them, mirrors the semantics, speaks announcements and routes
// errors. It holds no widget state and knows no widget: what is shown, said and settable comes
// from the server. Each host adds only its own furniture through the `on` hooks.
import { LayerStore, paint } from "./painter.js";
import { SemanticsLayer, mergeSemantics } from "./semantics.js";
import { Connection } from "./connection.js";
import { attachInput } from "./input.js";
import { RoomClock } from "./room-clock.js";
import { Prediction } from "./prediction.js";
import { EventsAhead } from "./events-ahead.js";

/** The protocol this client speaks (docs/PROTOCOL.md): ProtocolVersion.current on the server. */
export const PROTOCOL_VERSION = 10;

/** Room names the server accepts (docs/PROTOCOL.md, hello.room). */
export const ROOM_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Errors after which reconnecting cannot help: the client stops. */
const FINAL_ERRORS = new Set(["protocol_mismatch", "unknown_scene", "scene_mismatch"]);

/** Input messages: their `t` is what the server's `applied` echoes. */
const INPUT = new Set(["pointer", "wheel", "key", "action"]);

/** What each event type does on a page (docs/PROTOCOL.md, "What the page does with events"):
 *  `say` is what a screen reader hears (nothing per tick), `felt` marks a haptic, `shown` puts a
 *  value in its widget's semantics element (aria-valuenow) as it is played. Every type the
 *  server sends has a rule, even one that does nothing of its own; BrowserClientTests checks that
 *  against the server's list, so a new type cannot be ignored unnoticed. */
export const EVENT_RULES = {
  value: { say: (e) => (e.final ? e.text : null), shown: true }, // shown in its widget's semantics
  moved: {}, // felt through the haptic that comes with it; the frames show the tick
  selected: { say: (e) => e.name },
  added: { say: (e) => `Added ${e.name}` },
  deleted: { say: (e) => `Deleted ${e.name}` },
  haptic: { felt: true },
  announce: { say: (e) => e.text },
};

/** What the client does with each text message (docs/PROTOCOL.md, "Server → client"); checked
 *  against the server's list like EVENT_RULES. */
const HANDLERS = {
  welcome: (client, m) => client.welcome(m),
  semantics: (client, m) => {
    // A full list, or what changed since the last message (a patch before any list is passed over).
    const widgets = mergeSemantics(client.widgets, m);
    if (!widgets) return;
    client.widgets = widgets;
    client.semantics.update(widgets);
    client.catchers = catchers(widgets);
    client.on.semantics?.(widgets);
  },
  presence: (client, m) => client.on.presence?.(m),
  events: (client, m) => client.eventsMessage(m),
  error: (client, m) => client.error(m),
  applied: (client, m) => client.applied(m),
  pong: (client, m) => client.hud.pong(m.t),
};
export const MESSAGE_TYPES = Object.keys(HANDLERS);

/** The widgets whose glide a pointer down catches (`catches` in semantics): the layer, the rect. */
function catchers(widgets) {
  return (Array.isArray(widgets) ? widgets : []).filter((w) =>
    Number.isInteger(w?.catches?.layer) && Array.isArray(w.rect) && w.rect.length === 4 && w.rect.every(Number.isFinite))
    .map((w) => ({ layer: w.catches.layer, rect: w.rect }));
}

const NO_HUD = {
  received() {}, frame() {}, painted() {}, applied() {}, pong() {}, inputSent() {}, restartSeq() {}, setConnected() {},
};

export class SceneClient {
  /**
   * @param {object} options
   *   `canvas` (painted), `overlay` (holds the semantics' elements), `announcer` (a polite live
   *   region), `preferences()` ({theme, reducedMotion} to draw with, read when a hello is made);
   *   optional: `enabled()` (false: no input is sent), `latency` (simulated, ms each way), `predict`
   *   (show a held layer following the pointer before the server's frame: prediction.js), `hud`
   *   (told of every message, frame, paint and input: hud.js's Hud), and `on`, hooks for the host:
   *   `state(state, detail, code)` ("connecting", "open" once welcomed, "offline" with the wait and
   *   the close code), `welcome(m)` (after the scene is known), `semantics(widgets)`,
   *   `presence(m)`, `events(events)`, `haptics(events)` (one message's haptic events, if any),
   *   `refused(code, message)` (stopped for good: a room name the server would refuse, "bad_room",
   *   or a FINAL_ERRORS code), `error(m)` (any other error), `painted()`, `predicted(stats)` (with
   *   `predict`: after each paint, the shift shown and the corrections so far).
   */
  constructor({
    canvas, overlay, announcer, preferences, enabled = () => true, latency = 0, predict = false, hud = NO_HUD, on = {},
  }) {
    Object.assign(this, { canvas, announcer, preferences, enabled, latency, hud, on });
    this.prediction = predict ? new Prediction() : null;
    this.ctx = canvas.getContext("2d");
    this.store = new LayerStore();
    this.clock = new RoomClock();
    this.ahead = new EventsAhead(); // events sent ahead, played at their room times
    this.aheadTimer = null;
    this.drawPending = false; // a draw is asked of the next display frame
    this.connection = null;
    this.client = null; // this page's client id, from the welcome: the painter skips its own pointer
    this.scene = null; // { name, width, height } from the welcome
    this.welcomed = false;
    this.widgets = null; // the room's semantics as last known: a full list with the patches since
    this.scale = 1;
    this.dpr = 1;
    this.dirty = false;
    this.framesPainted = 0;
    this.sentPreferences = null; // what the latest hello or preferences message said
    this.unknown = new Set(); // message and event types met without a rule (warned once each)
    // Only the keys the focused widget handles (its semantics' "keys") are sent and kept from
    // the browser; Tab and the rest keep their usual meaning.
    this.semantics = new SemanticsLayer(overlay, (widget, keys, e) => {
      if (!this.enabled() || e.altKey || e.ctrlKey || e.metaKey || !keys.includes(e.key)) return false;
      this.send({ type: "key", key: e.key, widget, t: e.timeStamp });
      return true;
    });
    attachInput(canvas, () => this.scale, (m) => { if (this.enabled()) this.send(m); });
  }

  /** Turns drag prediction on or off (`<scroll-widget predict>`); off, nothing is shown moved. */
  setPrediction(on) {
    if (on === (this.prediction !== null)) return;
    this.prediction = on ? new Prediction() : null;
    this.redraw();
  }

  /** Joins `room` on the server at `url` (a `scene` name or null), leaving any room joined before. */
  connect({ url, room, scene = null }) {
    this.stop();
    if (!ROOM_PATTERN.test(room)) {
      // The server would refuse it, and reconnecting could not fix it: say what is allowed.
      this.on.refused?.("bad_room", `room name "${room}" is not allowed: use 1–64 characters of A–Z, a–z, 0–9, _ or -`);
      return;
    }
    this.store = new LayerStore();
    this.clock.reset();
    this.dropAhead();
    // Nothing this page guessed carries over to another connection.
    if (this.prediction) this.prediction = new Prediction();
    this.scene = null;
    // The room rides in the URL too, for a proxy that routes by it (docs/CLUSTER.md); the server reads
    // it from the hello.
    const routed = new URL(url);
    routed.searchParams.set("room", room);
    const connection = new Connection({
      url: routed.href,
      hello: () => {
        this.sentPreferences = { ...this.preferences() };
        return { type: "hello", protocol: PROTOCOL_VERSION, room, scene: scene || undefined, ...this.sentPreferences };
      },
      latency: this.latency,
      onState: (state, detail, code) => { if (this.connection === connection) this.connectionState(state, detail, code); },
      onText: (m) => { if (this.connection === connection) this.receive(m); },
      onReceived: (bytes) => { if (this.connection === connection) this.hud.received(bytes); },
      onBinary: (buffer) => { if (this.connection === connection) this.frame(buffer); },
    });
    this.connection = connection;
    connection.start();
  }

  /** Closes the connection (if any) and stops reconnecting. */
  stop() {
    this.connection?.stop();
    this.connection = null;
    this.notWelcomed();
    this.dropAhead();
  }

  /** Sends `message` if connected; returns whether it went. Input is timed by the HUD. */
  send(message) {
    if (!this.connection?.send(message)) return false;
    if (INPUT.has(message.type)) this.hud.inputSent(message.t);
    if (message.type === "pointer" && message.phase === "down") this.caught(message);
    if (this.prediction) {
      this.prediction.sent(message);
      // The finger moved: the held layer is shown there at the next display frame.
      if (this.prediction.active) this.redraw();
    }
    return true;
  }

  /** The theme or motion to draw with changed: tells the server what differs from the hello (or
   *  the last preferences); before the welcome it waits, since the server takes preferences only
   *  after hello, and the next hello carries them. */
  preferencesChanged() {
    if (!this.welcomed || !this.sentPreferences) return;
    const now = this.preferences();
    const changed = {};
    for (const key of ["theme", "reducedMotion"]) if (now[key] !== this.sentPreferences[key]) changed[key] = now[key];
    if (Object.keys(changed).length === 0) return;
    if (!this.send({ type: "preferences", ...changed })) return;
    Object.assign(this.sentPreferences, changed);
    // The server answers with a full frame that starts a new count of seq.
    this.hud.restartSeq();
  }

  /** Draws the scene at `scale` CSS px a point (sharp at the device pixel ratio). */
  setScale(scale) {
    if (!this.scene) return; // nothing to fit before the welcome
    this.scale = scale;
    this.dpr = devicePixelRatio || 1;
    this.canvas.width = Math.round(this.scene.width * scale * this.dpr);
    this.canvas.height = Math.round(this.scene.height * scale * this.dpr);
    this.semantics.layout(scale);
    // Resizing clears the canvas: repaint now, so it is never seen (or read) empty.
    this.dirty = true;
    this.draw();
  }

  connectionState(state, detail, code) {
    this.notWelcomed();
    this.on.state?.(state, detail, code);
  }

  notWelcomed() {
    this.welcomed = false;
    this.hud.setConnected(false);
  }

  /** One text message from the server. */
  receive(m) {
    const handle = Object.hasOwn(HANDLERS, m.type) ? HANDLERS[m.type] : null;
    if (handle) handle(this, m);
    else this.unknownType("message", m.type);
  }

  welcome(m) {
    if (m.protocol !== PROTOCOL_VERSION) {
      this.refuse("protocol_mismatch", `this page speaks protocol ${PROTOCOL_VERSION}, the server speaks ${m.protocol}; reload the page`);
      return;
    }
    this.client = m.client;
    this.scene = m.scene;
    this.connection?.joined();
    this.welcomed = true;
    // A welcome again on the same connection (the room moved to another node after a failover)
    // may start the room's time again, and what it sent ahead is void.
    this.clock.reset();
    this.dropAhead();
    // The semantics come whole next: a patch only continues this room's last message.
    this.widgets = null;
    this.hud.restartSeq();
    this.hud.setConnected(true);
    this.on.welcome?.(m);
    this.on.state?.("open");
    // The system's theme or motion may have changed since the hello was made.
    this.preferencesChanged();
  }

  error(m) {
    // Reconnecting cannot fix a wrong protocol or ?scene=: stop and say so.
    if (FINAL_ERRORS.has(m.code)) { this.refuse(m.code, m.message); return; }
    console.warn(`server refused: ${m.code}: ${m.message}`);
    this.on.error?.(m);
  }

  refuse(code, message) {
    this.stop();
    this.on.refused?.(code, message);
  }

  /** An events message (docs/PROTOCOL.md, "Events ahead"): `cancel` voids events sent ahead,
   *  `events` happened now, `ahead` are played when the room's clock reaches their times. */
  eventsMessage(m) {
    this.ahead.cancel(m.cancel);
    const now = Array.isArray(m.events) ? m.events : [];
    // Those sent ahead that are due by the newest of these go first: events stay in time order.
    let latest = -Infinity;
    for (const e of now) if (Number.isFinite(e?.t)) latest = Math.max(latest, e.t);
    this.playAhead(latest);
    if (now.length > 0) this.events(now);
    if (Array.isArray(m.ahead)) this.ahead.add(m.ahead);
    this.scheduleAhead();
  }

  /** Plays the events sent ahead that are due by room time `t`, as one batch. */
  playAhead(t) {
    if (t === null) return;
    const due = this.ahead.due(t);
    if (due.length > 0) this.events(due);
  }

  /** Wakes when the next event sent ahead is due (before the first frame the room's time is
   *  unknown: it looks again shortly). */
  scheduleAhead() {
    clearTimeout(this.aheadTimer);
    this.aheadTimer = null;
    const next = this.ahead.next;
    if (next === null) return;
    const now = this.clock.now();
    const wait = now === null ? 50 : Math.max(0, (next - now) * 1000);
    this.aheadTimer = setTimeout(() => {
      this.aheadTimer = null;
      this.playAhead(this.clock.now());
      this.scheduleAhead();
    }, wait);
  }

  dropAhead() {
    this.ahead.clear();
    clearTimeout(this.aheadTimer);
    this.aheadTimer = null;
  }

  // One batch of events, in time order.
  events(events) {
    const texts = [];
    const haptics = [];
    for (const e of events) {
      const rule = Object.hasOwn(EVENT_RULES, e.type) ? EVENT_RULES[e.type] : null;
      if (!rule) { this.unknownType("event", e.type); continue; }
      const text = rule.say?.(e);
      if (text) texts.push(text);
      if (rule.shown) this.semantics.showValue(e.widget, e.value, e.text);
      if (rule.felt) haptics.push(e);
    }
    // Haptics are felt, never announced: the batch's ticks play as one vibration pattern.
    if (haptics.length > 0) this.on.haptics?.(haptics);
    // The batch's announcements are spoken together (setting the live region twice would drop one).
    if (texts.length > 0) this.announcer.textContent = texts.join(". ");
    this.on.events?.(events);
  }

  /** A server newer than this page: said once per type, and otherwise left alone. */
  unknownType(what, type) {
    const key = `${what} ${type}`;
    if (this.unknown.has(key)) return;
    this.unknown.add(key);
    console.warn(`this page does not know the server's ${what} type "${type}"`);
  }

  /** This page's pointer went down at (x, y): a glide the server says it catches there is held
   *  where it is shown now until the server answers (docs/PROTOCOL.md, "A catch"). */
  caught(down) {
    const time = this.clock.now();
    if (time === null) return;
    for (const { layer, rect: [x, y, w, h] } of this.catchers ?? []) {
      if (down.x >= x && down.x <= x + w && down.y >= y && down.y <= y + h) this.store.hold(layer, time, down.t);
    }
  }

  /** `applied`: the frame just received shows input `t`; with prediction, how the held layer follows. */
  applied(m) {
    this.hud.applied(m.t);
    this.store.release(m.t);
    this.redraw();
    if (!this.prediction) return;
    this.prediction.applied(m, this.store, this.clock.now());
    this.redraw();
  }

  /** Paints at the next display frame (once, however often it is asked before then). */
  redraw() {
    this.dirty = true;
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => { this.drawPending = false; this.draw(); });
  }

  frame(buffer) {
    const at = performance.now();
    this.hud.frame(buffer);
    this.prediction?.frameComing(this.store);
    if (!this.store.apply(buffer)) return;
    this.prediction?.frameApplied(this.store);
    this.clock.frameArrived(this.store.time, at);
    this.redraw();
  }

  /** Paints what changed; while a track moves a layer, every display frame (the display's rate,
   *  not the server's tick). */
  draw() {
    if (!this.dirty) return;
    if (this.prediction?.holdsPaint()) { this.redraw(); return; }
    this.dirty = false;
    const time = this.clock.now();
    const placed = this.prediction?.placements(this.store, time);
    const changing = paint(this.ctx, this.store, this.scale, this.dpr, this.client, time, placed);
    const until = Math.max(this.store.movingUntil() ?? -Infinity, changing ?? -Infinity);
    if ((time !== null && time < until) || this.prediction?.moving) this.redraw();
    if (this.prediction) this.on.predicted?.(this.prediction.stats);
    if (this.store.seq === 0) return; // nothing received yet
    this.framesPainted += 1;
    this.hud.painted();
    this.on.painted?.();
  }
}
