// Forwards pointer and wheel input in scene points with the browser's own
// timestamps. Every coalesced sample is sent: the server's velocity tracker needs them.
// A mouse or pen moving with no button down is sent as "hover" (others see it as a dot),
// at most 30 a second, and never by a hidden page; while a pointer is down its own messages
// carry the position.

const MAX_COALESCED = 128;
/** The shortest time between two hover messages (at most 30 a second). */
const HOVER_GAP_MS = 33;

export function attachInput(canvas, getScale, send) {
  const active = new Set();
  const point = (e) => {
    const r = canvas.getBoundingClientRect();
    const s = getScale();
    return { x: (e.clientX - r.left) / s, y: (e.clientY - r.top) / s };
  };
  const base = (e, phase) => ({ type: "pointer", phase, id: e.pointerId, pointerType: e.pointerType, buttons: e.buttons });
  const hover = hoverSender(send);

  canvas.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    hover.drop();
    canvas.setPointerCapture(e.pointerId);
    active.add(e.pointerId);
    send({ ...base(e, "down"), ...point(e), t: e.timeStamp });
    e.preventDefault();
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!active.has(e.pointerId)) {
      const hovering = e.pointerType !== "touch" && e.buttons === 0 && active.size === 0;
      if (hovering) hover.queue({ type: "hover", ...point(e), t: e.timeStamp });
      return;
    }
    const samples = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
    const all = (samples.length ? samples : [e]).map((s) => { const p = point(s); return [p.x, p.y, s.timeStamp]; });
    // The server takes at most MAX_COALESCED samples a message: send a long burst in chunks.
    for (let i = 0; i < all.length; i += MAX_COALESCED) {
      const coalesced = all.slice(i, i + MAX_COALESCED);
      const last = coalesced[coalesced.length - 1];
      send({ ...base(e, "move"), x: last[0], y: last[1], t: last[2], coalesced });
    }
  });
  // Capture lost without an up (the element went away, the OS took the pointer): end the gesture.
  canvas.addEventListener("lostpointercapture", (e) => {
    if (active.delete(e.pointerId)) send({ ...base(e, "cancel"), ...point(e), t: e.timeStamp });
  });
  for (const [type, phase] of [["pointerup", "up"], ["pointercancel", "cancel"]]) {
    canvas.addEventListener(type, (e) => {
      if (!active.delete(e.pointerId)) return;
      send({ ...base(e, phase), ...point(e), t: e.timeStamp });
    });
  }
  // Left the canvas (a drag that ends outside leaves it after its up): the dot goes away.
  canvas.addEventListener("pointerleave", (e) => {
    if (e.pointerType !== "touch" && active.size === 0) hover.queue({ type: "hover", out: true, t: e.timeStamp });
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const s = getScale();
    // Pixel deltas are CSS pixels; the server wants scene points. Lines/pages it converts itself.
    const k = e.deltaMode === 0 ? 1 / s : 1;
    send({ type: "wheel", ...point(e), dx: e.deltaX * k, dy: e.deltaY * k, deltaMode: e.deltaMode, t: e.timeStamp });
  }, { passive: false });
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
}

/** Sends hover messages at least HOVER_GAP_MS apart. One that comes sooner waits for the gap
 *  to pass and is then sent, unless a newer one replaced it first: the newest position is
 *  always sent last, so the dot ends where the mouse stopped. A hidden page sends none (one
 *  waiting when the page is hidden is dropped): nobody is pointing at it. */
function hoverSender(send) {
  let lastSent = -Infinity;
  let pending = null;
  let timer = null;
  const flush = () => {
    timer = null;
    if (!pending) return;
    if (document.hidden) { pending = null; return; }
    // Timers may fire a little early (they count whole milliseconds): wait out the rest.
    const now = performance.now();
    if (now < lastSent + HOVER_GAP_MS) { timer = setTimeout(flush, lastSent + HOVER_GAP_MS - now); return; }
    const message = pending;
    pending = null;
    send(message);
    // Counted from when the send returned: a pause inside it (GC, a busy page) then cannot make
    // the next hover follow sooner than the gap after this one actually went.
    lastSent = performance.now();
  };
  return {
    queue(message) {
      if (document.hidden) return;
      pending = message;
      if (timer !== null) return;
      flush();
    },
    /** A pointer went down: what it does is sent as pointer messages, not as hover. */
    drop() {
      pending = null;
      clearTimeout(timer);
      timer = null;
    },
  };
}
