// Mirrors the server's semantics (role, value, rect) as DOM elements over the canvas,
// for assistive technology, keyboard focus and tests. The server decides the values.

const INTERACTIVE = new Set(["slider", "button", "listbox", "spinbutton"]);

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
      if (w.role === "status") el.textContent = w.valueText ?? "";
    }
    for (const [id, el] of this.nodes) if (!seen.has(id)) { el.remove(); this.nodes.delete(id); this.keys.delete(id); }
    this.layout(this.scale);
  }

  layout(scale) {
    this.scale = scale;
    for (const el of this.nodes.values()) {
      const [x, y, w, h] = el.dataset.rect.split(",").map(Number);
      Object.assign(el.style, { left: `${x * scale}px`, top: `${y * scale}px`, width: `${w * scale}px`, height: `${h * scale}px` });
    }
  }
}

function setAttr(el, name, value) {
  if (value === undefined || value === null) el.removeAttribute(name);
  else el.setAttribute(name, String(value));
}
