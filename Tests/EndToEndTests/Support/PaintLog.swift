import Foundation
import ScrollCore
import Testing

/// A layer whose painting `logPaints` records: its id in the scene, and the rectangle of the scene
/// (pt) where the texts it paints are noted; the scene's width maps the canvas's pixels to points.
struct PaintedLayer {
    var id: UInt16
    var texts: Rect
    var sceneWidth: Double
}

/// When a page paints, in its own time: a test-side observer installed before the page's scripts,
/// which only listens and passes every call through (like `observePage`).
extension BrowserPage {
    /// From the next navigation on, the page records in `window.paintLog`, each time as
    /// `performance.now()` (ms):
    /// - `frames`: every display frame (a `requestAnimationFrame` loop of its own, started first,
    ///   so in a frame where the page paints its callback runs before the page's), and in `ticks`
    ///   its `requestAnimationFrame` timestamp (the display's tick, not when the callback ran);
    /// - `paints`: every paint of a widget canvas, as `{ at, band }`. The painter starts each paint
    ///   by clearing the whole canvas (Public/js/painter.js); the entry is made once that paint is
    ///   done (a microtask after it). `band` is a hash of the painted pixels in rows `band` (a
    ///   fraction of the canvas's height, top to bottom), so a changed hash is a moved picture;
    ///   without `band`, null (no pixels are read);
    /// - `moves`: every `pointermove` the page receives (on the window, before the page sees it),
    ///   and in `stamps` its `timeStamp` (when the input was made: CDP's timestamp);
    /// - `binaries`: every binary message's arrival, as `{ at, wall, seq, data }` (`wall`:
    ///   `Date.now()`, which a held display leaves running; `seq`, the frame's number; `data` kept
    ///   when `keepFrames`);
    /// - `applied`: every `applied` message's `{ t, at }` (arrival: with `?latency=` the page
    ///   handles it that much later);
    /// - `stored`: each frame the page took into its layers (`LayerStore.apply`: with `?latency=`,
    ///   that much after its arrival, or later on a loaded machine), as `{ at, seq, paints }`
    ///   (`paints`: how many paints came before it).
    ///
    /// With `layer`, each paint also notes when it began (`start`) and what it painted of that
    /// layer: `time`, the room time it painted at (the page's room clock, read by its draw just
    /// before); `offset`, the `[dx, dy]` the page's LayerStore gives the layer then (its track's at
    /// `time`, or its fixed offset); `track`, whether that came from a track; `still`, whether it no longer moves (no track, or past its end); and `texts`, each
    /// text painted in `layer.texts` as `[text, x, y, size]` (scene points, where it was drawn: the
    /// layer's offset applied). The store and the clock are the page's own (their modules'
    /// prototypes wrapped, results passed through).
    ///
    /// The page's display can be held (`holdDisplay`): its clock (`performance.now()`) then stands
    /// still and its display frames (`requestAnimationFrame`) come only when the test steps it
    /// (`stepDisplay`), so what the page paints in each display frame is the page's, not how many
    /// frames a loaded machine lets through. Timers that wait for the clock to pass a time stand
    /// with it (`?latency=`'s queue, the hover throttle) until `releaseDisplay`.
    func logPaints(band: ClosedRange<Double>? = nil, keepFrames: Bool = false, layer: PaintedLayer? = nil) throws {
        let rows = band.map { "[\($0.lowerBound), \($0.upperBound)]" } ?? "null"
        let watched =
            layer.map {
                "{ id: \($0.id), rect: [\($0.texts.minX), \($0.texts.minY), \($0.texts.maxX), \($0.texts.maxY)], "
                    + "width: \($0.sceneWidth) }"
            } ?? "null"
        try addInitScript(
            """
            (() => {
              const log = window.paintLog = { frames: [], ticks: [], paints: [], moves: [], stamps: [], binaries: [], applied: [], stored: [] };
              // A frame's number (docs/PROTOCOL.md, "Frames": a little-endian u32 at byte 4).
              const seqOf = (buffer) => buffer.byteLength >= 8 ? new DataView(buffer).getUint32(4, true) : null;
              const layer = \(watched);
              // The page's newest LayerStore, its room clock's latest reading, and track.js: what its
              // draw hands the painter.
              let store = null, now = null, track = null, painting = null;
              import('/js/painter.js').then(({ LayerStore }) => {
                const apply = LayerStore.prototype.apply;
                LayerStore.prototype.apply = function (buffer) {
                  store = this;
                  log.stored.push({ at: performance.now(), seq: seqOf(buffer), paints: log.paints.length });
                  return apply.call(this, buffer);
                };
              }, () => { log.storeMissing = true; });  // about:blank has no painter: noted, not thrown
              if (layer) {
                import('/js/room-clock.js').then(({ RoomClock }) => {
                  const read = RoomClock.prototype.now;
                  RoomClock.prototype.now = function (...args) { now = read.apply(this, args); return now; };
                });
                import('/js/track.js').then((m) => { track = m; });
                const fillText = CanvasRenderingContext2D.prototype.fillText;
                CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
                  if (painting) {
                    const p = this.getTransform().transformPoint(new DOMPoint(x, y));
                    const unit = this.canvas.width / layer.width, [x0, y0, x1, y1] = layer.rect;
                    const sx = p.x / unit, sy = p.y / unit;
                    const size = parseFloat(/([0-9.]+)px/.exec(this.font)?.[1] ?? '0') * Math.hypot(this.getTransform().a, this.getTransform().b) / unit;
                    if (sx >= x0 && sx <= x1 && sy >= y0 && sy <= y1) painting.texts.push([String(text), sx, sy, size]);
                  }
                  return fillText.call(this, text, x, y, ...rest);
                };
              }
              // What a paint starting now paints of the layer (as painter.js's paint: the clock's time, else the store's).
              const painted = () => {
                const held = store?.layers.get(layer.id);
                if (!held || !track) return { start: performance.now(), time: null, offset: null, track: null, texts: [] };
                // A track held at a catch shows its held time (LayerStore.shownAt), as the painter does.
                const clock = now ?? store.time ?? 0;
                const time = held.track ? store.shownAt(layer.id, held, clock) : clock;
                const offset = held.track ? track.trackOffset(held.track, time) : [held.dx, held.dy];
                const still = held.track === null || time >= track.trackEnd(held.track);
                return { start: performance.now(), time, offset, track: held.track !== null, still, texts: [] };
              };
              // The held display: a clock standing at `held` (ms) and the frames asked for meanwhile.
              const display = log.display = { held: null, queue: [], next: 1 };
              const realNow = performance.now.bind(performance);
              const realFrame = requestAnimationFrame.bind(window), realCancel = cancelAnimationFrame.bind(window);
              performance.now = () => display.held ?? realNow();
              window.requestAnimationFrame = (callback) => {
                if (display.held === null) return realFrame(callback);
                const id = -display.next++;
                display.queue.push({ id, callback });
                return id;
              };
              window.cancelAnimationFrame = (id) => {
                if (id < 0) display.queue = display.queue.filter((f) => f.id !== id); else realCancel(id);
              };
              display.hold = () => { display.held = realNow(); return display.held; };
              display.release = () => {
                display.held = null;
                const due = display.queue;
                display.queue = [];
                for (const f of due) realFrame(f.callback);
              };
              display.step = (at) => {
                display.held = at;
                const due = display.queue;
                display.queue = [];
                for (const f of due) f.callback(at);
                return due.length;
              };
              const frame = (tick) => { log.frames.push(performance.now()); log.ticks.push(tick); requestAnimationFrame(frame); };
              requestAnimationFrame(frame);
              const rows = \(rows);
              const hash = (canvas) => {
                const top = Math.floor(canvas.height * rows[0]), bottom = Math.ceil(canvas.height * rows[1]);
                const d = new Uint32Array(canvas.getContext('2d').getImageData(0, top, canvas.width, bottom - top).data.buffer);
                let h = 2166136261;
                for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 16777619);
                return h >>> 0;
              };
              const clear = CanvasRenderingContext2D.prototype.clearRect;
              CanvasRenderingContext2D.prototype.clearRect = function (x, y, w, h) {
                const c = this.canvas;
                if (x === 0 && y === 0 && w === c.width && h === c.height && c.width > 0) {
                  const entry = layer ? (painting = painted()) : {};
                  queueMicrotask(() => {
                    painting = null;
                    log.paints.push({ at: performance.now(), band: rows ? hash(c) : null, ...entry });
                  });
                }
                return clear.call(this, x, y, w, h);
              };
              addEventListener('pointermove', (e) => { log.moves.push(performance.now()); log.stamps.push(e.timeStamp); }, true);
              const Native = window.WebSocket;
              window.WebSocket = class extends Native {
                constructor(...args) {
                  super(...args);
                  this.addEventListener('message', (e) => {
                    const at = performance.now();
                    if (typeof e.data !== 'string') {
                      log.binaries.push({ at, wall: Date.now(), seq: seqOf(e.data), data: \(keepFrames) ? e.data : null });
                      return;
                    }
                    if (!e.data.includes('"type":"applied"')) return;
                    try { log.applied.push({ t: JSON.parse(e.data).t, at }); } catch {}
                  });
                }
              };
            })();
            """)
    }
}

extension BrowserPage {
    /// Holds the page's display (`logPaints`): its clock stands still, at the time returned (ms,
    /// page time), and no display frame comes until `stepDisplay`.
    func holdDisplay() throws -> Double {
        try #require((evaluate("paintLog.display.hold()") as? NSNumber)?.doubleValue)
    }

    /// One display frame of the held display, at page time `at` (ms): the clock moves there and the
    /// frames asked for until now are run, with `at` as their timestamp. Returns how many ran.
    @discardableResult
    func stepDisplay(to at: Double) throws -> Int {
        try #require((evaluate("paintLog.display.step(\(at))") as? NSNumber)?.intValue)
    }

    /// Lets the page's clock and display frames run again; the frames asked for meanwhile come at
    /// the next real one.
    func releaseDisplay() throws {
        _ = try evaluate("paintLog.display.release()")
    }
}

extension BrowserPage {
    /// Plays `gesture` (`logPaints` with a band installed; the gesture's first step a move of a
    /// held pointer) and waits until a paint after the page received that move shows the band
    /// changed from the paint before it. Returns the time from the move to that paint (ms, page
    /// time), how many display frames began in between (that paint's own included: 1 is the
    /// first frame after the move), and the time from the move's `timeStamp` to that paint
    /// (Chromium hands a move to the page at its next display frame).
    func timeToMovedPaint(_ gesture: Gesture, timeout: Double = 5) throws -> (
        ms: Double, frames: Int, fromStamp: Double
    ) {
        guard
            let before = try evaluate(
                "[paintLog.moves.length, paintLog.paints.length, paintLog.paints.at(-1)?.band ?? -1]") as? [Double],
            before.count == 3
        else { throw HarnessError.javaScript("no paintLog in the page") }
        let (moves, paints, band) = (Int(before[0]), Int(before[1]), before[2])
        let moved = """
            paintLog.paints.find((p, i) => i >= \(paints) && p.at > paintLog.moves[\(moves)] && p.band !== \(band))
            """
        try perform(gesture)
        try waitFor("paintLog.moves.length > \(moves) && \(moved)", timeout: timeout)
        guard
            let got = try evaluate(
                """
                (() => { const move = paintLog.moves[\(moves)], paint = \(moved);
                  return [paint.at - move, paintLog.frames.filter(f => f > move && f <= paint.at).length,
                    paint.at - paintLog.stamps[\(moves)]]; })()
                """) as? [Double], got.count == 3
        else { throw HarnessError.javaScript("no moved paint in the log") }
        return (got[0], Int(got[1]), got[2])
    }
}

extension BrowserPage {
    /// How many pointer messages the page has sent (`BrowserRulerGestureTests.recordSent`).
    func pointersSent() throws -> Int {
        guard let n = try evaluate("sent.filter((m) => m.type === 'pointer').length") as? Int else {
            throw HarnessError.javaScript("no record of what the page sent")
        }
        return n
    }

    /// Waits until the page has sent more than `count` pointer messages (`pointersSent`), the
    /// server's `applied` for the last has come, and the frame it follows was painted: a paint
    /// after the page took that frame in (`stored`), which `?latency=` (or a test's own delay)
    /// puts off, on a loaded machine past the display frame the delay alone would give.
    func waitUntilAnswered(after count: Int, timeout: Double = 5) throws {
        if try evaluate("paintLog.storeMissing === true") as? Bool == true {
            throw HarnessError.javaScript("the paint log could not wrap the page's LayerStore")
        }
        try waitFor(
            """
            (() => { const p = sent.filter((m) => m.type === 'pointer'); if (p.length <= \(count)) return false;
              const a = paintLog.applied.find((a) => a.t === p.at(-1).t); if (!a) return false;
              const shown = paintLog.binaries.filter((f) => f.at <= a.at).at(-1); if (shown === undefined) return false;
              const stored = paintLog.stored.find((s) => s.seq === shown.seq && s.at >= shown.at);
              return stored !== undefined && paintLog.paints.length > stored.paints; })()
            """, timeout: timeout)
    }
}

/// One paint as `logPaints(layer:)` noted it (see there).
struct LoggedPaint {
    /// When it was done, and when it began (ms, page time; `start` only with a layer).
    var at: Double
    var start: Double?
    /// The room time it painted at, the layer's offset it painted, and whether a track gave it.
    var time: Double?
    var offset: Point?
    var onTrack: Bool?
    /// The texts painted in the layer's rectangle: text, where and how large (scene points).
    /// (Another layer's clipped texts may fall there too: a roller's strip of digits.)
    var texts: [(text: String, x: Double, y: Double, size: Double)]
}

extension BrowserPage {
    /// The display's tick interval (ms) between page times `start` and `end`, from `logPaints`'s
    /// `ticks`: the first quartile of their gaps. A loaded machine drops ticks, which only
    /// lengthens some gaps, so this stays the display's own (8.3 ms at 120 Hz, 16.7 at 60) as long
    /// as a quarter of the ticks come.
    func displayTick(from start: Double, to end: Double) throws -> Double {
        let ticks = try #require(evaluate("paintLog.ticks") as? [Double]).filter { $0 > start && $0 <= end }
        let gaps = zip(ticks.dropFirst(), ticks).map { $0 - $1 }.sorted()
        return try #require(gaps.isEmpty ? nil : gaps[gaps.count / 4], "no two display ticks in \(start)…\(end)")
    }

    /// The binary messages `logPaints(keepFrames: true)` kept, from the `first`-th on, decoded,
    /// each with its arrival (ms, page time).
    func receivedFrames(from first: Int = 0) throws -> [(at: Double, frame: DecodedFrame)] {
        guard
            let received = try evaluate(
                """
                paintLog.binaries.slice(\(first)).map(({ at, data }) => {
                  let s = ''; for (const x of new Uint8Array(data)) s += String.fromCharCode(x);
                  return [at, btoa(s)];
                })
                """) as? [[Any]]
        else { throw HarnessError.javaScript("no kept frames in the paintLog") }
        return try received.map { entry in
            guard let at = entry.first as? Double, let text = entry.last as? String,
                let bytes = Data(base64Encoded: text)
            else { throw HarnessError.javaScript("a kept frame unread: \(entry)") }
            return (at, try DecodedFrame(Array(bytes)))
        }
    }

    /// The paints `logPaints` noted, from the `first`-th on.
    func loggedPaints(from first: Int = 0) throws -> [LoggedPaint] {
        guard let paints = try evaluate("paintLog.paints.slice(\(first))") as? [[String: Any]] else {
            throw HarnessError.javaScript("no paintLog in the page")
        }
        return paints.map { p in
            let number = { (key: String) in (p[key] as? NSNumber)?.doubleValue }
            let offset = (p["offset"] as? [NSNumber]).map { Point(x: $0[0].doubleValue, y: $0[1].doubleValue) }
            let texts = (p["texts"] as? [[Any]] ?? []).compactMap { t -> (String, Double, Double, Double)? in
                guard let s = t.first as? String, t.count == 4, let x = (t[1] as? NSNumber)?.doubleValue,
                    let y = (t[2] as? NSNumber)?.doubleValue, let size = (t[3] as? NSNumber)?.doubleValue
                else { return nil }
                return (s, x, y, size)
            }
            return LoggedPaint(
                at: number("at") ?? 0, start: number("start"), time: number("time"), offset: offset,
                onTrack: p["track"] as? Bool, texts: texts)
        }
    }
}
