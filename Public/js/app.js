// The page: connects, forwards input, paints frames, mirrors semantics, turns
// events into side effects. It holds no widget state.
import { LayerStore, paint } from "./painter.js";
import { SemanticsLayer } from "./semantics.js";
import { Connection, offlineText } from "./connection.js";
import { attachInput } from "./input.js";
import { Feedback } from "./feedback.js";
import { PresenceBar, ROOM_PATTERN } from "./presence.js";
import { Hud } from "./hud.js";
import { Preferences } from "./preferences.js";

export const PROTOCOL_VERSION = 4;

const params = new URLSearchParams(location.search);
const stage = document.getElementById("stage");
const canvas = document.getElementById("canvas");
const ctx = canvas.getContext("2d");
const statusEl = document.getElementById("status");
const banner = document.getElementById("banner");
const announcer = document.getElementById("announcer");
const root = document.documentElement;
const noticeText = document.getElementById("notice-text");
const feedback = new Feedback({
  haptics: document.getElementById("haptics-switch"), sound: document.getElementById("sound-switch"), params, root,
});

// The room this page joins: ?room=, else the lobby. A name the server would refuse is
// shown as such and not sent: the page does not connect (reconnecting could not fix it).
const room = params.has("room") ? params.get("room") : "lobby";
const roomAllowed = ROOM_PATTERN.test(room);
const presence = new PresenceBar({ root, link: inviteLink });

const store = new LayerStore();
let client = null; // this page's client id, from the welcome: the painter skips its own pointer
let scene = null; // { width, height } from the welcome
let scale = 1;
let dpr = 1;
let dirty = false;
let framesPainted = 0;
let welcomed = false;
/** The theme and motion preference the latest hello asked for. */
let helloPreferences = null;

/** The simulated latency (ms each way) from ?latency=0…5000; a bad value is said, not ignored silently. */
const MAX_LATENCY_SIM = 5000;
const latencySim = (() => {
  if (!params.has("latency")) return 0;
  const text = params.get("latency");
  if (/^\d{1,4}$/.test(text) && Number(text) <= MAX_LATENCY_SIM) return Number(text);
  notice(`?latency=${text} is not used: give whole milliseconds from 0 to ${MAX_LATENCY_SIM} (e.g. ?latency=100).`);
  return 0;
})();
if (params.has("theme") && !["light", "dark"].includes(params.get("theme"))) {
  notice(`?theme=${params.get("theme")} is not used: give light or dark. The theme follows the system.`);
}

/** Input messages: their `t` is what the server's `applied` echoes. */
const INPUT = new Set(["pointer", "wheel", "key", "action"]);
/** Sends an input message; the HUD notes when, to measure input-to-frame latency. */
function sendInput(message) {
  if (connection.send(message) && INPUT.has(message.type)) hud.inputSent(message.t);
}

// Only the keys the focused widget handles (its semantics' "keys") are sent and kept
// from the browser; Tab and the rest keep their usual meaning.
const semantics = new SemanticsLayer(document.getElementById("semantics"), (widget, keys, e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || !keys.includes(e.key)) return false;
  sendInput({ type: "key", key: e.key, widget, t: e.timeStamp });
  return true;
});

// Theme and reduced motion follow the system live (and the theme button); a change is sent
// at once, and the server answers with a full frame drawn for it.
const preferences = new Preferences({
  root, button: document.getElementById("theme-button"), forced: params.get("theme"),
  onChange: () => sendChangedPreferences(),
});
/** Tells the server what changed since the hello (or the last preferences); before the welcome
 *  it waits: the server takes preferences only after hello, and the next hello carries them. */
function sendChangedPreferences() {
  if (!welcomed || !helloPreferences) return;
  const changed = {};
  if (preferences.theme !== helloPreferences.theme) changed.theme = preferences.theme;
  if (preferences.reducedMotion !== helloPreferences.reducedMotion) changed.reducedMotion = preferences.reducedMotion;
  if (Object.keys(changed).length === 0) return;
  if (!connection.send({ type: "preferences", ...changed })) return;
  Object.assign(helloPreferences, changed);
  hud.restartSeq();
}
const hud = new Hud({
  panel: document.getElementById("hud"), button: document.getElementById("hud-button"), root, latencySim,
  ping: (m) => welcomed && connection.send(m),
});
const connection = new Connection({
  url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`,
  hello: () => {
    helloPreferences = { theme: preferences.theme, reducedMotion: preferences.reducedMotion };
    return { type: "hello", protocol: PROTOCOL_VERSION, room, scene: params.get("scene") || undefined, ...helloPreferences };
  },
  latency: latencySim,
  onState: showState,
  onText: handleMessage,
  onReceived: (bytes) => hud.received(bytes),
  onBinary: (buffer) => {
    hud.frame(buffer);
    if (store.apply(buffer)) { dirty = true; requestAnimationFrame(draw); }
  },
});

function showState(state, detail, code) {
  statusEl.dataset.state = state;
  root.dataset.connection = state;
  // The last close code (1001 server restarting, 1013 full, …; 1006: no close frame).
  if (state === "offline") root.dataset.closeCode = String(code ?? "");
  statusEl.textContent = {
    connecting: "Connecting…", open: "Connected", offline: offlineText(code, detail),
    mismatch: "Version mismatch", refused: "Refused by the server", invalid: "Not connected",
  }[state];
  // Who is here is known only while connected (the next welcome brings a new presence).
  if (state !== "open") {
    presence.clear();
    welcomed = false;
    hud.setConnected(false);
  }
}

/** The link that opens this room (and this page's scene, if it names one). */
function inviteLink() {
  const scene = params.get("scene");
  const name = root.dataset.room || room;
  return `${location.origin}/?room=${encodeURIComponent(name)}${scene ? `&scene=${encodeURIComponent(scene)}` : ""}`;
}

function handleMessage(m) {
  switch (m.type) {
    case "welcome":
      if (m.protocol !== PROTOCOL_VERSION) {
        mismatch(`this page speaks protocol ${PROTOCOL_VERSION}, the server speaks ${m.protocol}; reload the page`);
        return;
      }
      scene = m.scene;
      root.dataset.scene = m.scene.name;
      client = m.client;
      root.dataset.client = m.client;
      root.dataset.room = m.room;
      presence.setClient(m.client, m.color);
      presence.showRoom(m.room);
      layout();
      connection.joined();
      welcomed = true;
      showState("open");
      hud.restartSeq();
      hud.setConnected(true);
      // The system's theme or motion may have changed since the hello was made.
      sendChangedPreferences();
      break;
    case "semantics": semantics.update(m.widgets); break;
    case "presence": presence.update(m.clients, m.count); break;
    case "events": sideEffects(m.events); break;
    case "error":
      if (m.code === "protocol_mismatch") { mismatch(m.message); return; }
      // Reconnecting cannot fix a wrong ?scene=: stop and say so.
      if (m.code === "unknown_scene" || m.code === "scene_mismatch") { refused(m.message); return; }
      console.warn(`server refused input: ${m.code}: ${m.message}`);
      if (m.fatal) statusEl.textContent = `Closed by the server: ${m.message}`;
      break;
    case "applied": hud.applied(m.t); break;
    case "pong": hud.pong(m.t); break;
  }
}

function mismatch(text) {
  refused(`Version mismatch: ${text}.`);
  showState("mismatch");
}

function refused(text) {
  connection.stop();
  banner.hidden = false;
  banner.textContent = text;
  showState("refused");
}

// One events message is one batch, in time order.
function sideEffects(events) {
  // Haptics are felt, never announced: the batch's ticks play as one vibration pattern.
  const haptics = events.filter((e) => e.type === "haptic");
  if (haptics.length > 0) feedback.haptics(haptics);
  // Screen readers hear final values and what the carousel did, nothing per tick; the
  // batch's announcements are spoken together (setting the live region twice would drop one).
  const texts = events.map(announcement).filter((text) => text);
  if (texts.length > 0) announcer.textContent = texts.join(". ");
}

function announcement(e) {
  switch (e.type) {
    case "value": return e.final ? e.text : null;
    case "announce": return e.text;
    case "selected": return e.name;
    case "added": return `Added ${e.name}`;
    case "deleted": return `Deleted ${e.name}`;
    default: return null;
  }
}

function layout() {
  if (!scene) return; // nothing to fit before the welcome
  scale = Math.min(innerWidth / scene.width, innerHeight / scene.height);
  dpr = devicePixelRatio || 1;
  const w = scene.width * scale, h = scene.height * scale;
  Object.assign(stage.style, { width: `${w}px`, height: `${h}px`, left: `${(innerWidth - w) / 2}px`, top: `${(innerHeight - h) / 2}px` });
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  semantics.layout(scale);
  // Resizing clears the canvas: repaint now, so it is never seen (or read) empty.
  dirty = true;
  draw();
}

function draw() {
  if (!dirty) return;
  dirty = false;
  paint(ctx, store, scale, dpr, client);
  if (store.seq === 0) return; // nothing received yet
  framesPainted += 1;
  root.dataset.frames = String(framesPainted);
  hud.painted();
}

addEventListener("resize", layout);
matchMedia("(resolution: 1dppx)").addEventListener?.("change", layout);
attachInput(canvas, () => scale, sendInput);

// `h` shows or hides the HUD, unless typing in a field or the focused widget took the key.
addEventListener("keydown", (e) => {
  if (e.key !== "h" || e.repeat || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  if (typesText(e.target)) return;
  hud.toggle();
});
document.getElementById("notice-close").addEventListener("click", () => { document.getElementById("notice").hidden = true; });

/** True for an element that takes typed text (where `h` is a letter, not a shortcut). */
function typesText(el) {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLInputElement && !NOT_TEXT.has(el.type);
}
const NOT_TEXT = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);

/** Shows a message about the address that does not stop the page (several are joined). */
function notice(text) {
  const box = document.getElementById("notice");
  noticeText.textContent = box.hidden || !noticeText.textContent ? text : `${noticeText.textContent} ${text}`;
  box.hidden = false;
}
layout();
if (roomAllowed) {
  root.dataset.room = room;
  presence.showRoom(room);
  connection.start();
} else {
  // Text, never HTML: the name is whatever the link said.
  banner.textContent = `Room name "${room}" is not allowed: use 1–64 characters of A–Z, a–z, 0–9, _ or -.`;
  banner.hidden = false;
  showState("invalid");
}
