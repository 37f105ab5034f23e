// Haptic feedback on the page: each "haptic" event from the server becomes a short
// vibration where the browser has navigator.vibrate, and optionally a click sound
// (Web Audio). The server decides when a haptic happens; the page only decides how it is
// felt, with two visible switches (remembered in localStorage when there is one).
//
// What the page did is counted on <html> (docs/PROTOCOL.md, "What the page does with events"):
//   data-haptics     haptic events received
//   data-vibrations  navigator.vibrate calls made (none while haptics are off, or without the API)
//   data-clicks      click sounds started

const VIBRATION_MS = 10;
const CLICK_SECONDS = 0.008;
// A fast fling crosses more ticks than a listener can tell apart; closer clicks are skipped.
const MIN_CLICK_GAP = 0.012;
const STORAGE = { haptics: "scroll-widgets.haptics", sound: "scroll-widgets.sound" };

export class Feedback {
  /**
   * @param {{ haptics: HTMLInputElement, sound: HTMLInputElement, params: URLSearchParams, root: HTMLElement }} options
   *   `haptics` and `sound` are the two switches; `?haptics=off` (or `on`) sets the initial
   *   state of the first for this page load, ahead of a remembered choice.
   */
  constructor({ haptics, sound, params, root }) {
    this.root = root;
    this.hapticsSwitch = haptics;
    this.soundSwitch = sound;
    this.counts = { haptics: 0, vibrations: 0, clicks: 0 };
    this.click = new ClickSound();
    this.canVibrate = typeof navigator.vibrate === "function";

    const fromURL = params.get("haptics");
    haptics.checked = (fromURL === "on" || fromURL === "off" ? fromURL : load(STORAGE.haptics) ?? "on") === "on";
    sound.checked = load(STORAGE.sound) === "on";
    if (!this.canVibrate) haptics.parentElement.title = "This browser cannot vibrate";

    haptics.addEventListener("change", () => save(STORAGE.haptics, haptics.checked ? "on" : "off"));
    sound.addEventListener("change", () => {
      save(STORAGE.sound, sound.checked ? "on" : "off");
      if (sound.checked) this.click.unlock(); // the switch's own click or key press is a user gesture
    });
    // A remembered "sound on" waits for the first gesture: browsers start audio only after one.
    const unlock = () => { if (sound.checked && !this.click.running) this.click.unlock(); };
    for (const type of ["pointerdown", "pointerup", "keydown"]) addEventListener(type, unlock, { capture: true });
    this.publish();
  }

  /** One haptic event from the server (`{type: "haptic", style, t, widget}`); every style feels the same. */
  haptic() {
    this.counts.haptics += 1;
    if (this.hapticsSwitch.checked && this.canVibrate) {
      navigator.vibrate(VIBRATION_MS);
      this.counts.vibrations += 1;
    }
    if (this.soundSwitch.checked && this.click.play()) this.counts.clicks += 1;
    this.publish();
  }

  publish() {
    for (const [name, n] of Object.entries(this.counts)) this.root.dataset[name] = String(n);
  }
}

/** A short synthesized tick, made on first use (after a user gesture) and reused. */
class ClickSound {
  constructor() { this.context = null; this.buffer = null; this.last = -Infinity; }

  get running() { return this.context?.state === "running"; }

  unlock() {
    const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
    if (!Context) return;
    if (!this.context) {
      try { this.context = new Context(); } catch { return; }
      this.buffer = tick(this.context);
    }
    if (this.context.state === "suspended") this.context.resume().catch(() => {});
  }

  /** Starts one click now; false when audio is not running yet or the last click was too recent. */
  play() {
    if (!this.running) return false;
    const now = this.context.currentTime;
    if (now - this.last < MIN_CLICK_GAP) return false;
    this.last = now;
    const source = this.context.createBufferSource();
    source.buffer = this.buffer;
    source.connect(this.context.destination);
    source.start(now);
    return true;
  }
}

/** 8 ms of a 2.2 kHz tone with a fast exponential decay, faded to silence at the end. */
function tick(context) {
  const rate = context.sampleRate;
  const n = Math.max(1, Math.round(rate * CLICK_SECONDS));
  const buffer = context.createBuffer(1, n, rate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    data[i] = 0.35 * Math.sin(2 * Math.PI * 2200 * t) * Math.exp(-t / 0.0015) * (1 - i / n);
  }
  return buffer;
}

// localStorage may be missing or refuse access (privacy settings, sandboxed frames).
function load(key) {
  try { return globalThis.localStorage?.getItem(key) ?? null; } catch { return null; }
}

function save(key, value) {
  try { globalThis.localStorage?.setItem(key, value); } catch { /* not remembered */ }
}
