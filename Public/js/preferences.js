// The colour scheme and motion preference the page is drawn with (the server renders frames
// per theme and motion preference; docs/PROTOCOL.md, hello and preferences).
//
// The theme follows the system's prefers-color-scheme live, unless the theme button overrides
// it (Auto → Light → Dark, remembered in localStorage) or ?theme= forces one for this page load.
// Reduced motion follows prefers-reduced-motion live. js/boot.js applies the same choice before
// the body renders, so a dark page never flashes light; this module takes over from there.
//
// On <html>: data-theme ("light" | "dark", as drawn), data-theme-choice ("system" | "light" |
// "dark" | "forced") and data-reduced-motion ("true" | "false").

/** Where the theme button's choice is kept; js/boot.js reads the same key. */
export const THEME_STORAGE = "scroll-widgets.theme";
const CHOICES = ["system", "light", "dark"];
const THEMES = ["light", "dark"];
const LABELS = { system: "Auto", light: "Light", dark: "Dark" };
const ICONS = { system: "◐", light: "☀", dark: "☾" };

export class Preferences {
  /**
   * @param {{ root: HTMLElement, button: HTMLButtonElement, forced: string | null,
   *   onChange: (changed: { theme?: string, reducedMotion?: boolean }) => void }} options
   *   `forced` is ?theme= ("light" or "dark"), else null; `onChange` gets the fields that changed.
   */
  constructor({ root, button, forced, onChange }) {
    Object.assign(this, { root, button, onChange });
    this.forced = THEMES.includes(forced) ? forced : null;
    this.system = matchMedia("(prefers-color-scheme: dark)");
    this.motion = matchMedia("(prefers-reduced-motion: reduce)");
    const stored = load();
    this.choice = CHOICES.includes(stored) ? stored : "system";
    this.current = { theme: this.theme, reducedMotion: this.reducedMotion };
    this.system.addEventListener("change", () => this.update());
    this.motion.addEventListener("change", () => this.update());
    button.addEventListener("click", () => this.next());
    this.apply();
  }

  /** The theme to draw: ?theme=, else the button's choice, else the system's. */
  get theme() {
    if (this.forced) return this.forced;
    if (this.choice !== "system") return this.choice;
    return this.system.matches ? "dark" : "light";
  }

  get reducedMotion() { return this.motion.matches; }

  /** The button: Auto → Light → Dark → Auto. */
  next() {
    if (this.forced) return;
    this.choice = CHOICES[(CHOICES.indexOf(this.choice) + 1) % CHOICES.length];
    save(this.choice);
    this.update();
  }

  update() {
    const now = { theme: this.theme, reducedMotion: this.reducedMotion };
    const changed = {};
    if (now.theme !== this.current.theme) changed.theme = now.theme;
    if (now.reducedMotion !== this.current.reducedMotion) changed.reducedMotion = now.reducedMotion;
    this.current = now;
    this.apply();
    if (Object.keys(changed).length > 0) this.onChange(changed);
  }

  apply() {
    const { root, button } = this;
    root.dataset.theme = this.current.theme;
    root.dataset.themeChoice = this.forced ? "forced" : this.choice;
    root.dataset.reducedMotion = String(this.current.reducedMotion);
    const shown = this.forced ?? this.choice;
    button.disabled = Boolean(this.forced);
    button.querySelector(".icon").textContent = ICONS[shown];
    button.querySelector(".label").textContent = LABELS[shown];
    button.setAttribute("aria-label", `Theme: ${LABELS[shown]}`);
    button.title = this.forced
      ? `Theme ${this.forced}, set by ?theme= in the address`
      : this.choice === "system"
        ? `Theme follows the system (now ${this.current.theme}); click for light`
        : `Theme ${this.choice}; click for ${this.choice === "light" ? "dark" : "the system's"}`;
  }
}

// localStorage may be missing or refuse access (privacy settings, sandboxed frames).
function load() {
  try { return globalThis.localStorage?.getItem(THEME_STORAGE) ?? null; } catch { return null; }
}

function save(value) {
  try { globalThis.localStorage?.setItem(THEME_STORAGE, value); } catch { /* not remembered */ }
}
