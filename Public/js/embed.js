// <scroll-widget>: one scene of a widget server in any page (docs/EMBEDDING.md).
//
// The element shows its scene with the page's own client (client.js: connection, frames,
// semantics, announcements). What it adds is the form control: a value (taken from the server's
// `value`/`selected` events), `input` and `change` events, form association (submit, reset,
// disabled) and a settable `value` (through the setter the widget's semantics name).
import { SceneClient } from "./client.js";
import { offlineText } from "./connection.js";

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

/** A private room's name: `embed-` and 128 random bits (32 hex digits) from the browser's CSPRNG,
 *  so nobody can guess another visitor's room and drive their form. */
function privateRoomName() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "embed-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class ScrollWidgetElement extends HTMLElement {
  static formAssociated = true;
  static observedAttributes = ["server", "room", "scene", "theme", "widget", "disabled", "predict"];

  #internals = this.attachInternals();
  #shadow;
  #stage;
  #canvas;
  #statusEl;
  #client;
  #room; // the room joined: the attribute, else a room of this element's own
  #started = false;
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
  #onSystemChange = () => this.#client.preferencesChanged();
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
    const live = el("div", "live");
    live.setAttribute("aria-live", "polite");
    this.#stage.append(this.#canvas, overlay, this.#statusEl);
    this.#shadow.append(this.#stage, live);
    this.#stage.style.aspectRatio = String(DEFAULT_ASPECT);
    this.#client = new SceneClient({
      canvas: this.#canvas, overlay, announcer: live,
      preferences: () => ({ theme: this.#theme(), reducedMotion: this.#motionQuery.matches }),
      enabled: () => !this.#isDisabled(),
      predict: this.hasAttribute("predict"),
      on: {
        state: (state, detail, code) => this.#setStatus(state, detail, code),
        welcome: () => { this.#fresh = true; this.#layout(); },
        semantics: (widgets) => {
          this.#widgets = widgets;
          this.#applyDisabled();
          this.#chooseWidget();
        },
        events: (events) => this.#events(events),
        refused: (code, message) => {
          this.#setStatus("refused", message);
          this.#fail(code, message);
        },
        error: (m) => { if (m.fatal) this.#fail(m.code, m.message); },
      },
    });
    this.#room = privateRoomName();
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
    this.#started = false;
    this.#client.stop();
    this.#setStatus("idle");
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    switch (name) {
      case "theme": this.#client.preferencesChanged(); break;
      case "disabled": this.#applyDisabled(); break;
      case "predict": this.#client.setPrediction(value !== null); break;
      case "widget": this.#chooseWidget(); break;
      default: // server, room, scene: another room, whose value is new to this element
        if (this.isConnected && this.#started) {
          this.#value = null;
          this.#defaultValue = null;
          this.#syncForm();
          this.#connect();
        }
    }
  }

  /** The element's own `disabled` or a disabled fieldset around it. */
  formDisabledCallback(disabled) { this.#formDisabled = disabled; this.#applyDisabled(); }

  /** form.reset(): the widget goes back to the first value this element knew (through its setter). */
  formResetCallback() {
    if (this.#defaultValue !== null && this.#defaultValue !== this.#value) this.value = this.#defaultValue;
  }

  /** The browser restoring a form (back/forward navigation): the widget is set to the saved value. */
  formStateRestoreCallback(state, mode) {
    if (mode === "restore" && typeof state === "string" && state !== "") this.value = state;
  }

  // MARK: - Properties

  /** The widget's value as a string, as a form submits it ("" until it is known). Setting it drives
   *  the widget there with the action its semantics' `set` names; the value changes (and the
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
  get framesPainted() { return this.#client.framesPainted; }
  /** The room joined (the `room` attribute, else a room of this element's own). */
  get room() { return this.getAttribute("room") || this.#room; }
  /** The scene shown, from the welcome: { name, width, height } (null before). */
  get scene() { return this.#client.scene ? { ...this.#client.scene } : null; }

  // MARK: - Connection

  #connect() {
    this.#started = true;
    this.#widgets = [];
    this.#client.connect({
      url: serverURL(this.getAttribute("server")), room: this.room, scene: this.getAttribute("scene"),
    });
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

  // MARK: - The value

  /** The widget this element reports: the `widget` attribute, else the scene's first widget
   *  whose semantics say how to set its value. */
  #widget() {
    const id = this.getAttribute("widget");
    return (id ? this.#widgets.find((w) => w.id === id) : this.#widgets.find((w) => w.set)) ?? null;
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
    for (const e of events) {
      if (e.widget !== this.#widgetId) continue;
      if (e.type === "value") this.#report(e.value, e.text, e.final);
      else if (e.type === "selected") this.#report(e.name, e.name, true);
    }
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

  /** Sends the widget's setter (its semantics' `set`, docs/PROTOCOL.md) with `v` as its argument. */
  #setWidget(widget, v) {
    if (String(v) === this.value) return;
    const argument = widget.set ? setterArgument(widget, v) : null;
    if (argument === null) { console.warn(`<scroll-widget>: cannot set "${widget.id}" to ${v}`); return; }
    const { action, argument: name } = widget.set;
    this.#client.send({ type: "action", widget: widget.id, action, args: { [name]: argument }, t: performance.now() });
  }

  /** Disabled (by its attribute or a fieldset): no input reaches the widget, nothing in it takes focus. */
  #isDisabled() { return this.#formDisabled || this.hasAttribute("disabled"); }

  #applyDisabled() {
    this.#stage.inert = this.#isDisabled();
  }

  // MARK: - Layout

  #layout() {
    const scene = this.#client.scene;
    if (scene) this.#stage.style.aspectRatio = `${scene.width} / ${scene.height}`;
    const width = this.clientWidth;
    if (!scene || width <= 0) return;
    this.#client.setScale(width / scene.width);
  }

  #watchResolution() {
    this.#resolutionQuery?.removeEventListener("change", this.#onResolution);
    this.#resolutionQuery = matchMedia(`(resolution: ${devicePixelRatio || 1}dppx)`);
    this.#resolutionQuery.addEventListener("change", this.#onResolution);
  }
}

function el(tag, className) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}

/** The value a widget's semantics state: valueNow, else its selected option's label, else its
 *  text (a number when it reads as one). */
function semanticValue(w) {
  if (typeof w.valueNow === "number") return w.valueNow;
  const selected = w.options?.find((o) => o.selected);
  if (selected) return selected.label;
  if (w.valueText !== undefined) {
    const n = Number(w.valueText);
    return Number.isFinite(n) && w.valueText.trim() !== "" ? n : w.valueText;
  }
  return null;
}

/** `v` as the argument of the widget's setter takes it (semantics `set.takes`), or null when it
 *  cannot be: a number, a whole number, or the index of an option (by label, or digits). */
function setterArgument(widget, v) {
  const text = String(v);
  switch (widget.set.takes) {
    case "number": return text.trim() === "" || !Number.isFinite(Number(v)) ? null : Number(v);
    case "integer": return text.trim() === "" || !Number.isFinite(Number(v)) ? null : Math.round(Number(v));
    case "option": {
      const options = widget.options ?? [];
      let index = options.findIndex((o) => o.label === text);
      if (index < 0 && /^\d+$/.test(text)) index = Number(text);
      return index >= 0 && index < options.length ? index : null;
    }
    default: return null;
  }
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
