// The page: connects, forwards input, paints frames, mirrors semantics, turns
// events into side effects. It holds no widget state.
import { LayerStore, paint } from "./painter.js";
import { SemanticsLayer } from "./semantics.js";
import { Connection } from "./connection.js";
import { attachInput } from "./input.js";
import { Feedback } from "./feedback.js";
import { PresenceBar, ROOM_PATTERN } from "./presence.js";

export const PROTOCOL_VERSION = 3;

const params = new URLSearchParams(location.search);
const stage = document.getElementById("stage");
const canvas = document.getElementById("canvas");
const ctx = canvas.getContext("2d");
const statusEl = document.getElementById("status");
const banner = document.getElementById("banner");
const announcer = document.getElementById("announcer");
const root = document.documentElement;
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

// Only the keys the focused widget handles (its semantics' "keys") are sent and kept
// from the browser; Tab and the rest keep their usual meaning.
const semantics = new SemanticsLayer(document.getElementById("semantics"), (widget, keys, e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || !keys.includes(e.key)) return false;
  connection.send({ type: "key", key: e.key, widget, t: e.timeStamp });
  return true;
});

const theme = params.get("theme") || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
root.dataset.theme = theme;
const connection = new Connection({
  url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`,
  hello: () => ({
    type: "hello", protocol: PROTOCOL_VERSION, room,
    scene: params.get("scene") || undefined, theme,
    reducedMotion: matchMedia("(prefers-reduced-motion: reduce)").matches,
  }),
  onState: showState,
  onText: handleMessage,
  onBinary: (buffer) => {
    if (store.apply(buffer)) { dirty = true; requestAnimationFrame(draw); }
  },
});

function showState(state, detail) {
  statusEl.dataset.state = state;
  root.dataset.connection = state;
  statusEl.textContent = {
    connecting: "Connecting…", open: "Connected", offline: `Offline — retrying in ${detail}`,
    mismatch: "Version mismatch", refused: "Refused by the server", invalid: "Not connected",
  }[state];
  // Who is here is known only while connected (the next welcome brings a new presence).
  if (state !== "open") presence.clear();
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
      presence.setClient(m.client);
      presence.showRoom(m.room);
      layout();
      connection.joined();
      showState("open");
      break;
    case "semantics": semantics.update(m.widgets); break;
    case "presence": presence.update(m.clients); break;
    case "events": sideEffects(m.events); break;
    case "error":
      if (m.code === "protocol_mismatch") { mismatch(m.message); return; }
      // Reconnecting cannot fix a wrong ?scene=: stop and say so.
      if (m.code === "unknown_scene" || m.code === "scene_mismatch") { refused(m.message); return; }
      console.warn(`server refused input: ${m.code}: ${m.message}`);
      if (m.fatal) statusEl.textContent = `Closed by the server: ${m.message}`;
      break;
    case "pong": break;
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
}

addEventListener("resize", layout);
matchMedia("(resolution: 1dppx)").addEventListener?.("change", layout);
attachInput(canvas, () => scale, (m) => connection.send(m));
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
