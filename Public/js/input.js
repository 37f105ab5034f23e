// Forwards pointer and wheel input in scene points with the browser's own
// timestamps. Every coalesced sample is sent: the server's velocity tracker needs them.

const MAX_COALESCED = 128;

export function attachInput(canvas, getScale, send) {
  const active = new Set();
  const point = (e) => {
    const r = canvas.getBoundingClientRect();
    const s = getScale();
    return { x: (e.clientX - r.left) / s, y: (e.clientY - r.top) / s };
  };
  const base = (e, phase) => ({ type: "pointer", phase, id: e.pointerId, pointerType: e.pointerType, buttons: e.buttons });

  canvas.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    canvas.setPointerCapture(e.pointerId);
    active.add(e.pointerId);
    send({ ...base(e, "down"), ...point(e), t: e.timeStamp });
    e.preventDefault();
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!active.has(e.pointerId)) return;
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
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const s = getScale();
    // Pixel deltas are CSS pixels; the server wants scene points. Lines/pages it converts itself.
    const k = e.deltaMode === 0 ? 1 / s : 1;
    send({ type: "wheel", ...point(e), dx: e.deltaX * k, dy: e.deltaY * k, deltaMode: e.deltaMode, t: e.timeStamp });
  }, { passive: false });
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
}
