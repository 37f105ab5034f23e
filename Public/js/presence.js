// The room bar: the room's name, a Share button for the invite link, and who is here
// (docs/PROTOCOL.md, "presence"). Everything shown comes from the server's presence
// messages; the page only decides how it looks.
//
// On <html> for tests: data-people (how many the latest presence lists), data-color (this
// page's own colour in it), data-share ("copied" once the clipboard took the link, "manual"
// when it refused and the link is shown to copy by hand).

/** Chips shown at most; the rest are counted as "+N". */
const MAX_CHIPS = 8;
const COLOR = /^#[0-9A-Fa-f]{6}$/;
const COPIED_MS = 2000;

export class PresenceBar {
  /** `link()` makes the invite link for the room shown. */
  constructor({ root, link }) {
    this.root = root;
    this.link = link;
    this.client = null;
    this.bar = document.getElementById("presence");
    this.roomName = document.getElementById("room-name");
    this.count = document.getElementById("people-count");
    this.people = document.getElementById("people");
    this.note = document.getElementById("share-note");
    this.fallback = document.getElementById("share-fallback");
    this.linkField = document.getElementById("share-link");
    this.shareButton = document.getElementById("share-button");
    this.noteTimer = null;
    this.shareButton.addEventListener("click", () => this.share());
    document.getElementById("share-done").addEventListener("click", () => this.closeFallback(true));
    this.fallback.addEventListener("keydown", (e) => { if (e.key === "Escape") this.closeFallback(true); });
    // Selecting all on focus makes the field easy to copy from by hand (long-press, Ctrl+C).
    this.linkField.addEventListener("focus", () => this.linkField.select());
  }

  /** Shows `room` (the bar stays hidden until then). */
  showRoom(room) {
    this.roomName.textContent = room;
    this.roomName.title = `Room ${room}`;
    this.bar.hidden = false;
  }

  /** This page's client id and colour (from welcome): its own chip says "you". */
  setClient(client, color) {
    this.client = client;
    this.color = typeof color === "string" && COLOR.test(color) ? color : null;
  }

  /** Shows the room's clients: `clients` `[{id, color}]`, the first ones in join order (a
   *  crowded room lists only some), `count` how many are here in all. */
  update(clients, count) {
    const list = Array.isArray(clients) ? clients.filter((c) => typeof c?.id === "string") : [];
    const total = Number.isInteger(count) && count >= list.length ? count : list.length;
    this.root.dataset.people = String(total);
    // Not listed in a crowded room: this page still knows who it is and its colour.
    const own = list.find((c) => c.id === this.client)
      ?? (this.client && this.color && total > list.length ? { id: this.client, color: this.color } : null);
    if (own && COLOR.test(own.color)) this.root.dataset.color = own.color.toUpperCase();
    else delete this.root.dataset.color;
    this.count.textContent = `${total} here`;
    // Your own chip first, so it is shown however many join; the rest in join order.
    const ordered = own ? [own, ...list.filter((c) => c.id !== own.id)] : list;
    const shown = ordered.slice(0, total > MAX_CHIPS ? MAX_CHIPS - 1 : MAX_CHIPS);
    this.people.replaceChildren(...shown.map((c) => this.chip(c, c === own)));
    const more = total - shown.length;
    if (more > 0) {
      const li = document.createElement("li");
      li.className = "more";
      li.textContent = `+${more}`;
      li.title = `${more} more`;
      this.people.append(li);
    }
  }

  /** Not connected: nobody is known to be here. */
  clear() {
    delete this.root.dataset.people;
    delete this.root.dataset.color;
    this.count.textContent = "";
    this.people.replaceChildren();
  }

  chip(client, isOwn) {
    const li = document.createElement("li");
    li.className = isOwn ? "chip own" : "chip";
    li.dataset.client = client.id;
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.setAttribute("aria-hidden", "true");
    // CSSOM, not a style attribute: the page's CSP allows no inline styles.
    if (COLOR.test(client.color)) dot.style.setProperty("--chip", client.color);
    li.append(dot);
    const name = document.createElement("span");
    name.className = isOwn ? "name" : "name visually-hidden";
    name.textContent = isOwn ? "you" : client.id;
    li.append(name);
    li.title = isOwn ? `You (${client.id})` : client.id;
    return li;
  }

  async share() {
    const link = this.link();
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(link);
    } catch {
      // Refused (no permission, not a secure context, no API): let the link be copied by hand.
      this.root.dataset.share = "manual";
      this.linkField.value = link;
      this.fallback.hidden = false;
      this.linkField.focus();
      this.linkField.select();
      return;
    }
    this.root.dataset.share = "copied";
    this.closeFallback(false);
    this.note.textContent = "Link copied";
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { this.note.textContent = ""; }, COPIED_MS);
  }

  closeFallback(refocus) {
    if (this.fallback.hidden) return;
    this.fallback.hidden = true;
    if (refocus) this.shareButton.focus();
  }
}
