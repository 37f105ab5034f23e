// <scroll-widget>: one scene of a widget server in any page (docs/EMBEDDING.md).
//
// The element is a thin client like the page itself: it connects, forwards input, paints
// frames and mirrors semantics, reusing the page's modules. What it adds is the form
// control: a value (taken from the server's `value`/`selected` events), `input` and
// `change` events, form association (submit, reset, disabled) and a settable `value`
// (through the widget's action).
import { LayerStore, paint } from "./painter.js";
import { SemanticsLayer } from "./semantics.js";
import { Connection, offlineText } from "./connection.js";
import { attachInput } from "./input.js";
import { ROOM_PATTERN } from "./presence.js";

/** The protocol this element speaks (docs/PROTOCOL.md); the same as app.js's. */
export const PROTOCOL_VERSION = 4;

/** Where the module was loaded from: the default server (normally the page's own origin). */
const MODULE_ORIGIN = new URL(import.meta.url).origin;

/** What the element shows until the welcome tells it the scene's size (width / height). */
const DEFAULT_ASPECT = 390 / 300;

const STATUS_TEXT = {
  connecting: "Connecting…", open: "", offline: (detail, code) => offlineText(code, detail),
};

// Constructed style sheets are not inline styles: a page whose CSP has no 'unsafe-inline'
// (like ours: style-src 'self') still applies them.
const sheet = new CSSStyleSheet();
sheet.replaceSync(`
:host { display: block; position: relative; contain: layout paint; min-width: 40px;
  -webkit-tap-highlight-color: transparent; }
:host([hidden]) { display: none; }
:host(:disabled) .stage { opacity: .45; filter: grayscale(1); }
.stage { position: relative; width: 100%; touch-action: none; user-select: none; -webkit-user-select: none; }
canvas { position: absolute; left: 0; top: 0; width: 100%; height: 100%; display: block; touch-action: none; }
.semantics { position: absolute; left: 0; top: 0; pointer-events: none; }
.semantics > [data-widget] { position: absolute; box-sizing: border-box; border-radius: 6px; outline: none;
  color: transparent; overflow: hidden; pointer-events: none; }
.semantics > [data-widget]:focus-visible { box-shadow: 0 0 0 3px rgba(0,122,255,.7); }
.semantics [data-option] { position: absolute; box-sizing: border-box; overflow: hidden; pointer-events: none; }
.status { position: absolute; left: 0; right: 0; top: 50%; transform: translateY(-50%); padding: 4px 8px;
  text-align: center; font: 13px/1.3 "DejaVu Sans", system-ui, sans-serif; color: #5c5c63; pointer-events: none; }
.status:empty { display: none; }
.status[data-state="refused"] { color: #c4001a; font-weight: bold; }
.live { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`);

let instances = 0;

export class ScrollWidgetElement extends HTMLElement {
  static formAssociated = true;
  static observedAttributes = ["server", "room", "scene", "theme", "widget", "disabled"];

  #internals = this.attachInternals();
  #shadow;
  #stage;
  #canvas;
  #ctx;
  #statusEl;
  #live;
  #semantics;
  #store = new LayerStore();
  #connection = null;
  #room; // the room joined: the attribute, else a room of this element's own
  #client = null;
  #scene = null;
  #scale = 1;
  #dpr = 1;
  #dirty = false;
  #frames = 0;
  #state = "idle";
  #widgets = []; // the latest semantics
  #widgetId = null; // whose value this element reports
  #value = null; // the server's value (a number, or the carousel's item name), null until known
  #text = "";
  #committed = null; // the value last reported with a change event (or first known)
  #defaultValue = null; // what form.reset() goes back to: the first value known
  #pendingSet = null; // a value set before the widget was known
  #formDisabled = false;
  #fresh = true; // no semantics since the welcome: their value is taken as it is
  #themeQuery = matchMedia("(prefers-color-scheme: dark)");
  #motionQuery = matchMedia("(prefers-reduced-motion: reduce)");
  #resizeObserver = new ResizeObserver(() => this.#layout());
  #onSystemChange = () => this.#sendPreferences();
  #onResolution = () => { this.#watchResolution(); this.#layout(); };
  #resolutionQuery = null;

  constructor() {
    super();
    this.#shadow = this.attachShadow({ mode: "open", delegatesFocus: true });
    this.#shadow.adoptedStyleSheets = [sheet];
    this.#stage = el("div", "stage");
    this.#stage.setAttribute("part", "stage");
    this.#canvas = el("canvas");
    this.#canvas.setAttribute("aria-hidden", "true");
    this.#canvas.setAttribute("part", "canvas");
    const overlay = el("div", "semantics");
    this.#statusEl = el("div", "status");
    this.#statusEl.setAttribute("part", "status");
    this.#statusEl.setAttribute("role", "status");
    this.#live = el("div", "live");
    this.#live.setAttribute("aria-live", "polite");
    this.#stage.append(this.#canvas, overlay, this.#statusEl);
    this.#shadow.append(this.#stage, this.#live);
    this.#stage.style.aspectRatio = String(DEFAULT_ASPECT);
    this.#ctx = this.#canvas.getContext("2d");
    // Only the keys the focused widget handles are sent (and kept from the browser).
    this.#semantics = new SemanticsLayer(overlay, (widget, keys, e) => {
      if (this.#isDisabled() || e.altKey || e.ctrlKey || e.metaKey || !keys.includes(e.key)) return false;
      this.#connection?.send({ type: "key", key: e.key, widget, t: e.timeStamp });
      return true;
    });
    attachInput(this.#canvas, () => this.#scale, (m) => { if (!this.#isDisabled()) this.#connection?.send(m); });
    this.#room = `embed-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${++instances}`;
  }

  // MARK: - Lifecycle

  connectedCallback() {
    this.#resizeObserver.observe(this);
    this.#themeQuery.addEventListener("change", this.#onSystemChange);
    this.#motionQuery.addEventListener("change", this.#onSystemChange);
    this.#watchResolution();
    this.#connect();
  }

  disconnectedCallback() {
    this.#resizeObserver.disconnect();
    this.#themeQuery.removeEventListener("change", this.#onSystemChange);
    this.#motionQuery.removeEventListener("change", this.#onSystemChange);
    this.#resolutionQuery?.removeEventListener("change", this.#onResolution);
    this.#disconnect();
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    switch (name) {
      case "theme": this.#sendPreferences(); break;
      case "disabled": this.#applyDisabled(); break;
      case "widget": this.#chooseWidget(); break;
      default: // server, room, scene: another room, whose value is new to this element
        if (this.isConnected && this.#connection) {
          this.#value = null;
          this.#defaultValue = null;
          this.#syncForm();
          this.#connect();
        }
    }
  }

  /** The element's own `disabled` or a disabled fieldset around it. */
  formDisabledCallback(disabled) { this.#formDisabled = disabled; this.#applyDisabled(); }

  /** form.reset(): the widget goes back to the first value this element knew (through its action). */
  formResetCallback() {
    if (this.#defaultValue !== null && this.#defaultValue !== this.#value) this.value = this.#defaultValue;
  }

  /** The browser restoring a form (back/forward navigation): the widget is set to the saved value. */
  formStateRestoreCallback(state, mode) {
    if (mode === "restore" && typeof state === "string" && state !== "") this.value = state;
  }

  // MARK: - Properties

  /** The widget's value as a string, as a form submits it ("" until it is known). Setting it drives
   *  the widget there with its action (setValue, changeTo or select); the value changes (and the
   *  events fire) when the server reports it. */
  get value() { return this.#value === null ? "" : String(this.#value); }
  set value(v) {
    const widget = this.#widget();
    if (!widget) { this.#pendingSet = v; return; }
    this.#setWidget(widget, v);
  }

  /** The value as a number (NaN when it is not one, e.g. the carousel's item name). */
  get valueAsNumber() { return this.#value === null || this.#value === "" ? NaN : Number(this.#value); }

  /** The widget's value as people read it ("72.5 kg"). */
  get valueText() { return this.#text; }

  /** The id of the widget whose value this element reports (null until the semantics came). */
  get widgetId() { return this.#widgetId; }

  get disabled() { return this.hasAttribute("disabled"); }
  set disabled(on) { this.toggleAttribute("disabled", Boolean(on)); }

  get name() { return this.getAttribute("name") ?? ""; }
  set name(v) { this.setAttribute("name", v); }

  get form() { return this.#internals.form; }
  get labels() { return this.#internals.labels; }
  get type() { return "scroll-widget"; }

  /** "idle", "connecting", "open", "offline" or "refused". */
  get connectionState() { return this.#state; }
  /** Frames painted since the element was made. */
  get framesPainted() { return this.#frames; }
  /** The room joined (the `room` attribute, else a room of this element's own). */
  get room() { return this.getAttribute("room") || this.#room; }
  /** The scene shown, from the welcome: { name, width, height } (null before). */
  get scene() { return this.#scene ? { ...this.#scene } : null; }

  // MARK: - Connection

  #connect() {
    this.#disconnect();
    if (!ROOM_PATTERN.test(this.room)) {
      // The server would refuse it; say what is allowed instead of waiting forever.
      this.#refuse("bad_room", `room name "${this.room}" is not allowed: use 1–64 characters of A–Z, a–z, 0–9, _ or -`);
      return;
    }
    this.#store = new LayerStore();
    this.#scene = null;
    this.#widgets = [];
    this.#setStatus("connecting");
    const connection = new Connection({
      url: serverURL(this.getAttribute("server")),
      hello: () => ({
        type: "hello", protocol: PROTOCOL_VERSION, room: this.room,
        scene: this.getAttribute("scene") || undefined, theme: this.#theme(),
        reducedMotion: this.#motionQuery.matches,
      }),
      onState: (state, detail, code) => { if (this.#connection === connection) this.#setStatus(state, detail, code); },
      onText: (m) => { if (this.#connection === connection) this.#message(m); },
      onBinary: (buffer) => {
        if (this.#connection !== connection) return;
        if (this.#store.apply(buffer)) { this.#dirty = true; requestAnimationFrame(() => this.#draw()); }
      },
    });
    this.#connection = connection;
    connection.start();
  }

  #disconnect() {
    this.#connection?.stop();
    this.#connection = null;
    this.#setStatus("idle");
  }

  #message(m) {
    switch (m.type) {
      case "welcome":
        if (m.protocol !== PROTOCOL_VERSION) {
          this.#refuse("protocol_mismatch", `this element speaks protocol ${PROTOCOL_VERSION}, the server ${m.protocol}`);
          return;
        }
        this.#client = m.client;
        this.#scene = m.scene;
        this.#connection.joined();
        this.#fresh = true;
        this.#setStatus("open");
        this.#layout();
        break;
      case "semantics":
        this.#widgets = m.widgets;
        this.#semantics.update(m.widgets);
        this.#applyDisabled();
        this.#chooseWidget();
        break;
      case "events": this.#events(m.events); break;
      case "error":
        if (m.code === "protocol_mismatch" || m.code === "unknown_scene" || m.code === "scene_mismatch") {
          this.#refuse(m.code, m.message);
        } else if (m.fatal) {
          this.#fail(m.code, m.message);
        } else {
          console.warn(`<scroll-widget> server refused: ${m.code}: ${m.message}`);
        }
        break;
    }
  }

  /** Reconnecting cannot fix this: stop, say so, and fire `error`. */
  #refuse(code, message) {
    this.#connection?.stop();
    this.#setStatus("refused", message);
    this.#fail(code, message);
  }

  #fail(code, message) {
    this.dispatchEvent(new CustomEvent("error", { detail: { code, message } }));
  }

  #setStatus(state, detail, code) {
    this.#state = state;
    for (const s of ["connecting", "open", "offline", "refused"]) {
      try { if (s === state) this.#internals.states.add(s); else this.#internals.states.delete(s); } catch { /* no custom states */ }
    }
    const text = state === "refused" ? detail : STATUS_TEXT[state];
    this.#statusEl.dataset.state = state;
    this.#statusEl.textContent = typeof text === "function" ? text(detail, code) : text ?? "";
  }

  #theme() {
    const t = this.getAttribute("theme");
    return t === "light" || t === "dark" ? t : this.#themeQuery.matches ? "dark" : "light";
  }

  #sendPreferences() {
    this.#connection?.send({ type: "preferences", theme: this.#theme(), reducedMotion: this.#motionQuery.matches });
  }

  // MARK: - The value

  /** The widget this element reports: the `widget` attribute, else the scene's first widget with keys
   *  that is not a button (its default focus, skipping buttons), else the first with a value. */
  #widget() {
    const id = this.getAttribute("widget");
    if (id) return this.#widgets.find((w) => w.id === id) ?? null;
    return this.#widgets.find((w) => (w.keys ?? []).length > 0 && w.role !== "button")
      ?? this.#widgets.find((w) => w.valueNow !== undefined || (w.role === "status" && w.valueText !== undefined))
      ?? null;
  }

  #chooseWidget() {
    const widget = this.#widget();
    if (!widget) return;
    if (widget.id !== this.#widgetId) {
      this.#widgetId = widget.id;
      this.#value = null;
      this.#committed = null;
      this.#defaultValue = null;
    }
    // The first semantics after a welcome tell the value before any event does (also after a
    // reconnect): it is taken quietly, as an input's initial value. Later, events tell it.
    if (this.#fresh || this.#value === null) {
      const value = semanticValue(widget);
      if (value !== null) {
        this.#fresh = false;
        this.#value = value;
        this.#text = widget.valueText ?? String(value);
        this.#committed = value;
        this.#defaultValue ??= value;
        this.#syncForm();
      }
    }
    if (this.#pendingSet !== null) {
      const v = this.#pendingSet;
      this.#pendingSet = null;
      this.#setWidget(widget, v);
    }
  }

  /** One events message: the reported widget's values become `input` and `change` events. */
  #events(events) {
    const spoken = [];
    for (const e of events) {
      if (e.type === "announce") spoken.push(e.text);
      if (e.widget !== this.#widgetId) continue;
      if (e.type === "value" && e.final) spoken.push(e.text);
      if (e.type === "selected") spoken.push(e.name);
      if (e.type === "value") this.#report(e.value, e.text, e.final);
      else if (e.type === "selected") this.#report(e.name, e.name, true);
    }
    if (spoken.length > 0 && this.#widgetId) this.#live.textContent = spoken.join(". ");
  }

  #report(value, text, final) {
    const changed = value !== this.#value;
    this.#value = value;
    this.#text = text;
    if (changed) { this.#syncForm(); this.#fire("input", final); }
    if (final && value !== this.#committed) {
      this.#committed = value;
      this.#fire("change", true);
    }
  }

  #fire(type, final) {
    const detail = { value: this.#value, text: this.#text, final, widget: this.#widgetId };
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail }));
  }

  #syncForm() {
    this.#internals.setFormValue(this.value, this.value);
  }

  #setWidget(widget, v) {
    if (String(v) === this.value) return;
    const actions = widget.actions ?? [];
    let action = null;
    if (actions.includes("setValue")) action = { action: "setValue", args: { value: Number(v) } };
    else if (actions.includes("changeTo")) action = { action: "changeTo", args: { n: Math.round(Number(v)) } };
    else if (actions.includes("select")) {
      const options = widget.options ?? [];
      let index = options.findIndex((o) => o.label === String(v));
      if (index < 0 && /^\d+$/.test(String(v))) index = Number(v);
      if (index >= 0 && index < options.length) action = { action: "select", args: { index } };
    }
    if (!action) { console.warn(`<scroll-widget>: cannot set "${widget.id}" to ${v}`); return; }
    this.#connection?.send({ type: "action", widget: widget.id, ...action, t: performance.now() });
  }

  /** Disabled (by its attribute or a fieldset): no input reaches the widget, nothing in it takes focus. */
  #isDisabled() { return this.#formDisabled || this.hasAttribute("disabled"); }

  #applyDisabled() {
    this.#stage.inert = this.#isDisabled();
  }

  // MARK: - Layout and painting

  #layout() {
    const width = this.clientWidth;
    if (this.#scene) this.#stage.style.aspectRatio = `${this.#scene.width} / ${this.#scene.height}`;
    if (!this.#scene || width <= 0) return;
    this.#scale = width / this.#scene.width;
    this.#dpr = devicePixelRatio || 1;
    const h = this.#scene.height * this.#scale;
    this.#canvas.width = Math.round(width * this.#dpr);
    this.#canvas.height = Math.round(h * this.#dpr);
    this.#semantics.layout(this.#scale);
    // Resizing clears the canvas: repaint now.
    this.#dirty = true;
    this.#draw();
  }

  #watchResolution() {
    this.#resolutionQuery?.removeEventListener("change", this.#onResolution);
    this.#resolutionQuery = matchMedia(`(resolution: ${devicePixelRatio || 1}dppx)`);
    this.#resolutionQuery.addEventListener("change", this.#onResolution);
  }

  #draw() {
    if (!this.#dirty) return;
    this.#dirty = false;
    paint(this.#ctx, this.#store, this.#scale, this.#dpr, this.#client);
    if (this.#store.seq === 0) return;
    this.#frames += 1;
  }
}

function el(tag, className) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}

/** The value a widget's semantics state: valueNow, else its text (the carousel's item, a roller's number). */
function semanticValue(w) {
  if (typeof w.valueNow === "number") return w.valueNow;
  if (w.role === "listbox") return w.options?.find((o) => o.selected)?.label ?? w.valueText ?? null;
  if (w.valueText !== undefined) {
    const n = Number(w.valueText);
    return Number.isFinite(n) && w.valueText.trim() !== "" ? n : w.valueText;
  }
  return null;
}

/** The WebSocket URL for a `server` attribute: ws: and wss: URLs as they are, http(s) ones as
 *  ws(s) on the same host and path; absent: the origin this module came from. */
export function serverURL(attribute) {
  const url = new URL(attribute || `${MODULE_ORIGIN}/`, document.baseURI);
  if (url.protocol === "http:") url.protocol = "ws:";
  else if (url.protocol === "https:") url.protocol = "wss:";
  return url.href;
}

if (!customElements.get("scroll-widget")) customElements.define("scroll-widget", ScrollWidgetElement);
