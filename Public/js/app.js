// The demo page: one scene (client.js) filling the window, with the page's furniture around
// it: the status pill and banners, the room bar, haptics and the click sound, the theme button
// and the HUD. It holds no widget state.
import { SceneClient, ROOM_PATTERN } from "./client.js";
import { offlineText } from "./connection.js";
import { Feedback } from "./feedback.js";
import { PresenceBar } from "./presence.js";
import { Hud } from "./hud.js";
import { Preferences } from "./preferences.js";

const params = new URLSearchParams(location.search);
const stage = document.getElementById("stage");
const canvas = document.getElementById("canvas");
const statusEl = document.getElementById("status");
const banner = document.getElementById("banner");
const root = document.documentElement;
const noticeText = document.getElementById("notice-text");
const feedback = new Feedback({
  haptics: document.getElementById("haptics-switch"), sound: document.getElementById("sound-switch"), params, root,
});

// The room this page joins: ?room=, else the lobby. A name the server would refuse is
// shown as such and not sent: the page does not connect (reconnecting could not fix it).
const room = params.has("room") ? params.get("room") : "lobby";
const presence = new PresenceBar({ root, link: inviteLink });

/** The simulated latency (ms each way) from ?latency=0…5000; a bad value is said, not ignored silently. */
const MAX_LATENCY_SIM = 5000;
const latencySim = (() => {
  if (!params.has("latency")) return 0;
  const text = params.get("latency");
  if (/^\d{1,4}$/.test(text) && Number(text) <= MAX_LATENCY_SIM) return Number(text);
  notice(`?latency=${text} is not used: give whole milliseconds from 0 to ${MAX_LATENCY_SIM} (e.g. ?latency=100).`);
  return 0;
})();
/** ?predict=1: a held layer is shown following the pointer before the server's frame comes. */
const predict = params.get("predict") === "1";
if (params.has("predict") && !["0", "1"].includes(params.get("predict"))) {
  notice(`?predict=${params.get("predict")} is not used: give 1 (on) or 0 (off).`);
}
if (predict) root.dataset.predict = "on";
if (params.has("theme") && !["light", "dark"].includes(params.get("theme"))) {
  notice(`?theme=${params.get("theme")} is not used: give light or dark. The theme follows the system.`);
}

// Theme and reduced motion follow the system live (and the theme button); a change is sent
// at once, and the server answers with a full frame drawn for it.
const preferences = new Preferences({
  root, button: document.getElementById("theme-button"), forced: params.get("theme"),
  onChange: () => client.preferencesChanged(),
});
const hud = new Hud({
  panel: document.getElementById("hud"), button: document.getElementById("hud-button"), root, latencySim,
  ping: (m) => client.welcomed && client.send(m),
});
const client = new SceneClient({
  canvas, overlay: document.getElementById("semantics"), announcer: document.getElementById("announcer"),
  preferences: () => ({ theme: preferences.theme, reducedMotion: preferences.reducedMotion }),
  latency: latencySim, predict, hud,
  on: {
    state: showState,
    welcome(m) {
      root.dataset.scene = m.scene.name;
      root.dataset.client = m.client;
      root.dataset.room = m.room;
      presence.setClient(m.client, m.color);
      presence.showRoom(m.room);
      layout();
    },
    presence: (m) => presence.update(m.clients, m.count),
    haptics: (events) => feedback.haptics(events),
    refused,
    error(m) { if (m.fatal) statusEl.textContent = `Closed by the server: ${m.message}`; },
    painted() { root.dataset.frames = String(client.framesPainted); },
    predicted(stats) {
      // For the HUD's readers and tests: the shift shown now, and the corrections so far (pt).
      root.dataset.predictShift = stats.shift.toFixed(2);
      root.dataset.predictCorrections = String(stats.corrections);
      root.dataset.predictMaxCorrection = stats.maxCorrection.toFixed(2);
      if (stats.releaseCorrection !== null) root.dataset.predictReleaseCorrection = stats.releaseCorrection.toFixed(2);
    },
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
  if (state !== "open") presence.clear();
}

/** The link that opens this room (and this page's scene, if it names one). */
function inviteLink() {
  const scene = params.get("scene");
  const name = root.dataset.room || room;
  return `${location.origin}/?room=${encodeURIComponent(name)}${scene ? `&scene=${encodeURIComponent(scene)}` : ""}`;
}

/** The client stopped for good: a banner says why (as text, never HTML: a room name is whatever the link said). */
function refused(code, message) {
  banner.hidden = false;
  if (code === "protocol_mismatch") {
    banner.textContent = `Version mismatch: ${message}.`;
    showState("mismatch");
  } else if (code === "bad_room") {
    banner.textContent = `${message[0].toUpperCase()}${message.slice(1)}.`;
    showState("invalid");
  } else {
    banner.textContent = message;
    showState("refused");
  }
}

function layout() {
  const scene = client.scene;
  if (!scene) return; // nothing to fit before the welcome
  const scale = Math.min(innerWidth / scene.width, innerHeight / scene.height);
  const w = scene.width * scale, h = scene.height * scale;
  Object.assign(stage.style, { width: `${w}px`, height: `${h}px`, left: `${(innerWidth - w) / 2}px`, top: `${(innerHeight - h) / 2}px` });
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  client.setScale(scale);
}

addEventListener("resize", layout);
matchMedia("(resolution: 1dppx)").addEventListener?.("change", layout);

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
if (ROOM_PATTERN.test(room)) {
  root.dataset.room = room;
  presence.showRoom(room);
}
client.connect({
  url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`, room, scene: params.get("scene"),
});
