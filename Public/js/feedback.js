// Haptic feedback on the page: each "haptic" event from the server becomes a short
// vibration pulse where the browser has navigator.vibrate, and optionally a click sound
// (Web Audio). The server decides when a haptic happens; the page only decides how it is
// felt, with two visible switches (remembered in localStorage when there is one).
//
// One events message can hold several ticks (a fast fling crosses 3–4 per 16 ms frame), and
// each navigator.vibrate call cancels the one before, so a message's haptics are played as ONE
// pattern [10, gap, 10, gap, …] whose pulses start as far apart as the events' times (at most
// MAX_PULSES pulses; ticks closer than a pulse run together), and their clicks are scheduled
// the same way.
//
// What the page did is counted on <html> (docs/PROTOCOL.md, "What the page does with events"):
//   data-haptics     haptic events received
//   data-vibrations  vibration patterns the browser accepted (navigator.vibrate returned true):
//                    one per events message with haptics in it; none while haptics are off,
//                    without the API, or when the browser refuses (no user gesture yet)
//   data-clicks      click sounds started (at most one per haptic event)

const VIBRATION_MS = 10;
/** The longest pattern played for one message; later ticks of the message are not felt. */
const MAX_PULSES = 20;
/** The shortest pause between two pulses; closer ticks run into one continuous buzz. */
const MIN_GAP_MS = 10;
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

  /**
   * The haptic events of one events message (`{type: "haptic", style, t, widget, count?}`, `t` in
   * seconds, in order), at least one; every style feels the same. A haptic with `count` stands for
   * that many clicks past the message's budget (docs/PROTOCOL.md): counted, felt as one pulse.
   */
  haptics(events) {
    this.counts.haptics += events.reduce((n, e) => n + (Number.isInteger(e.count) && e.count > 1 ? e.count : 1), 0);
    if (this.hapticsSwitch.checked && this.canVibrate && navigator.vibrate(vibrationPattern(events))) {
      this.counts.vibrations += 1;
    }
    if (this.soundSwitch.checked) {
      for (const e of events) if (this.click.play(e.t - events[0].t)) this.counts.clicks += 1;
    }
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

  /**
   * Starts one click `delay` seconds from now; false when audio is not running yet or the
   * click would come too soon after the last one.
   */
  play(delay = 0) {
    if (!this.running) return false;
    const at = this.context.currentTime + Math.max(0, delay);
    if (at - this.last < MIN_CLICK_GAP) return false;
    this.last = at;
    const source = this.context.createBufferSource();
    source.buffer = this.buffer;
    source.connect(this.context.destination);
    source.start(at);
    return true;
  }
}

/**
 * The vibration pattern for one message's haptic events: [10, gap, 10, gap, …] (ms), pulse i
 * starting (t_i − t_0) after the first. Pulses stay at least MIN_GAP_MS apart so that each is felt
 * as a click: a tick that comes sooner is felt in the pulse before it. At most MAX_PULSES pulses.
 */
export function vibrationPattern(events) {
  const pattern = [VIBRATION_MS];
  let end = VIBRATION_MS; // where the last pulse ends, ms after the first started
  for (let i = 1; i < events.length && pattern.length < 2 * MAX_PULSES - 1; i++) {
    const start = Math.round((events[i].t - events[0].t) * 1000);
    if (start - end < MIN_GAP_MS) continue;
    pattern.push(start - end, VIBRATION_MS);
    end = start + VIBRATION_MS;
  }
  return pattern;
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
