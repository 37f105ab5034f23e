// Mirrors the server's semantics (role, value, rect) as DOM elements over the canvas,
// for assistive technology, keyboard focus and tests. The server decides the values.
// A widget with `options` (a listbox) gets one child element per option, role "option",
// placed at the option's rect (they move as items slide); the listbox keeps the focus and
// points at the selected option with aria-activedescendant.
// The elements are kept in reading order (top to bottom, then left to right, by their rects),
// so Tab goes through the widgets as they are seen; the focused one shows an outline (styles.css).

const INTERACTIVE = new Set(["slider", "button", "listbox", "spinbutton"]);

/** The widget list a `semantics` message leaves (docs/PROTOCOL.md): its `widgets`, or `known` (the
 *  list before) with its `changed` applied by id — each field given replaces the widget's, a
 *  `null` one removes it. Entries are new objects; `known` is left as it was. Null when the
 *  message is a patch and nothing is known to apply it to, or neither. */
export function mergeSemantics(known, m) {
  if (Array.isArray(m.widgets)) return m.widgets;
  if (!Array.isArray(known) || !Array.isArray(m.changed)) return null;
  const changes = new Map(m.changed.filter((c) => typeof c?.id === "string").map((c) => [c.id, c]));
  return known.map((w) => {
    const change = changes.get(w.id);
    if (!change) return w;
    const merged = { ...w };
    for (const [name, value] of Object.entries(change)) {
      if (value === null) delete merged[name];
      else merged[name] = value;
    }
    return merged;
  });
}

export class SemanticsLayer {
  constructor(root, onKey) {
    this.root = root; this.onKey = onKey; this.nodes = new Map(); this.keys = new Map(); this.scale = 1;
  }

  update(widgets) {
    const seen = new Set();
    for (const w of widgets) {
      seen.add(w.id);
      let el = this.nodes.get(w.id);
      if (!el) {
        el = document.createElement("div");
        el.dataset.widget = w.id;
        if (INTERACTIVE.has(w.role)) {
          el.tabIndex = 0;
          el.addEventListener("keydown", (e) => { if (this.onKey(w.id, this.keys.get(w.id) ?? [], e)) e.preventDefault(); });
        }
        this.root.appendChild(el);
        this.nodes.set(w.id, el);
      }
      this.keys.set(w.id, w.keys ?? []);
      el.setAttribute("role", w.role);
      el.setAttribute("aria-label", w.label);
      el.dataset.rect = w.rect.join(",");
      setAttr(el, "aria-valuenow", w.valueNow);
      setAttr(el, "aria-valuemin", w.valueMin);
      setAttr(el, "aria-valuemax", w.valueMax);
      setAttr(el, "aria-valuetext", w.valueText);
      // A status is spoken by the announcer once it settles (final values); its own region
      // stays quiet, or a settled number would be read twice.
      if (w.role === "status") { el.textContent = w.valueText ?? ""; el.setAttribute("aria-live", "off"); }
      updateOptions(el, w.options ?? []);
    }
    for (const [id, el] of this.nodes) if (!seen.has(id)) { el.remove(); this.nodes.delete(id); this.keys.delete(id); }
    this.readingOrder();
    this.layout(this.scale);
  }

  /** A `value` event as the page plays it: the widget's element shows that value until the next
   *  semantics (a glide's moving values come as events sent ahead, not as semantics). Only an
   *  element with a value (`aria-valuenow`) and only a number. */
  showValue(id, value, text) {
    const el = this.nodes.get(id);
    if (!el || !el.hasAttribute("aria-valuenow") || !Number.isFinite(value)) return;
    el.setAttribute("aria-valuenow", String(value));
    if (typeof text === "string") el.setAttribute("aria-valuetext", text);
  }

  /** Puts the elements in reading order: by top edge, then left edge (scene points). */
  readingOrder() {
    const origin = (el) => el.dataset.rect.split(",").slice(0, 2).map(Number);
    const sorted = [...this.nodes.values()].sort((a, b) => {
      const [ax, ay] = origin(a), [bx, by] = origin(b);
      return ay - by || ax - bx;
    });
    const current = [...this.root.children].filter((el) => el.dataset.widget !== undefined);
    if (sorted.every((el, i) => current[i] === el)) return;
    // Moving the focused element would blur it: it is focused again where it lands.
    const focused = sorted.find((el) => el.contains(document.activeElement));
    for (const el of sorted) this.root.appendChild(el);
    if (focused && !focused.contains(document.activeElement)) focused.focus({ preventScroll: true });
  }

  layout(scale) {
    this.scale = scale;
    for (const el of this.nodes.values()) {
      const [x, y] = place(el, 0, 0, scale);
      // Options sit inside their listbox: their rects are scene points, their styles relative.
      for (const option of el.children) if (option.dataset.option !== undefined) place(option, x, y, scale);
    }
  }
}

/** Makes `listbox`'s option children match `options` (in order), and its active descendant the selected one. */
function updateOptions(listbox, options) {
  const old = new Map([...listbox.children].filter((c) => c.dataset.option !== undefined).map((c) => [c.dataset.option, c]));
  let active = null;
  options.forEach((o, i) => {
    let el = old.get(o.id);
    old.delete(o.id);
    if (!el) {
      el = document.createElement("div");
      el.dataset.option = o.id;
      el.id = optionElementId(o.id);
      el.setAttribute("role", "option");
    }
    if (listbox.children[i] !== el) listbox.insertBefore(el, listbox.children[i] ?? null);
    if (el.textContent !== o.label) el.textContent = o.label;
    el.setAttribute("aria-selected", String(Boolean(o.selected)));
    el.dataset.rect = o.rect.join(",");
    if (o.selected) active = el.id;
  });
  for (const el of old.values()) el.remove();
  setAttr(listbox, "aria-activedescendant", active);
}

/** A valid, unique DOM id for an option id: "sem-option-" and the id with every character but
 *  A–Z a–z 0–9 and "-" written as "_<hex code point>_" ("carousel.7" → "sem-option-carousel_2e_7"). */
function optionElementId(id) {
  return "sem-option-" + [...String(id)].map((c) => (/[A-Za-z0-9-]/.test(c) ? c : `_${c.codePointAt(0).toString(16)}_`)).join("");
}

/** Positions `el` at its data-rect (scene points) relative to a parent at (`px`, `py`) CSS px; returns its own position. */
function place(el, px, py, scale) {
  const [x, y, w, h] = el.dataset.rect.split(",").map(Number);
  Object.assign(el.style, { left: `${x * scale - px}px`, top: `${y * scale - py}px`, width: `${w * scale}px`, height: `${h * scale}px` });
  return [x * scale, y * scale];
}

function setAttr(el, name, value) {
  if (value === undefined || value === null) el.removeAttribute(name);
  else el.setAttribute(name, String(value));
}
