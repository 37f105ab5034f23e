import ScrollCore

/// The frames one client received, and the layers it holds after each, rebuilt from full and
/// delta frames the way the page does (docs/PROTOCOL.md, "Frames"). Decoding is ScrollCore's
/// `DecodedFrame`; this adds only what a receiver must check and keep.
struct FrameLog {
    struct Entry {
        var seq: UInt32
        /// Scene time (s) in the frame's header.
        var time: Double
        var isDelta: Bool
        /// The message exactly as received.
        var bytes: [UInt8]
        /// Every layer the client holds once this frame is applied, in frame order.
        var layers: [HeldLayer]
    }

    struct Violation: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var entries: [Entry] = []
    private var index: [UInt32: Int] = [:]

    /// The layers held now (after the newest frame).
    var layers: [HeldLayer] { entries.last?.layers ?? [] }
    var last: Entry? { entries.last }
    var seqs: [UInt32] { entries.map(\.seq) }

    func entry(seq: UInt32) -> Entry? { index[seq].map { entries[$0] } }

    /// The layers this client held as of frame `seq`: those of that frame if it came; else, when
    /// the next frame that came is a delta, those of the last one before `seq` (the server sends
    /// a delta only to a client whose last frame was seq − 1, and counts a frame that changes
    /// nothing as received without sending it: so every frame in between changed nothing). Nil
    /// when the client skipped `seq` (latest wins) or has no frame after it yet.
    func layers(at seq: UInt32) -> [HeldLayer]? {
        if let e = entry(seq: seq) { return e.layers }
        guard let next = entries.firstIndex(where: { $0.seq > seq }), next > 0, entries[next].isDelta else {
            return nil
        }
        return entries[next - 1].layers
    }

    /// Applies one binary message. Throws when it breaks the frame contract: a delta without a
    /// frame before it, a layer kept or moved that is not held, seq not increasing.
    mutating func apply(_ bytes: [UInt8]) throws {
        let frame = try DecodedFrame(bytes)
        let held = layers
        if let last, frame.seq <= last.seq {
            throw Violation(description: "frame seq \(frame.seq) after seq \(last.seq)")
        }
        var next: [HeldLayer] = []
        next.reserveCapacity(frame.layers.count)
        if frame.isDelta {
            guard last != nil else { throw Violation(description: "delta frame \(frame.seq) with no frame before it") }
            // Every layer of the frame, in order: one held before by its id, or a new one (a
            // widget's part: a roller's column added) with its ops; one not listed is gone.
            let byID = Dictionary(held.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for layer in frame.layers {
                guard let applied = layer.applied(to: byID[layer.id]) else {
                    throw Violation(description: "delta \(frame.seq): layer \(layer.id) cannot be applied")
                }
                next.append(applied)
            }
        } else {
            for layer in frame.layers {
                guard layer.ops != nil, let applied = layer.applied(to: nil) else {
                    throw Violation(description: "full frame \(frame.seq) marks layer \(layer.id) keep or move")
                }
                next.append(applied)
            }
        }
        index[frame.seq] = entries.count
        entries.append(Entry(seq: frame.seq, time: frame.time, isDelta: frame.isDelta, bytes: bytes, layers: next))
    }

    /// Checks that `other` received the same thing for every seq both received: the same bytes
    /// when both got the same kind (full/full, delta/delta), the same scene time, and the same
    /// rebuilt layers always. Returns how many seqs they share, and how many of those came as
    /// the same kind to both (so compared byte for byte).
    func sameFrames(as other: FrameLog) throws -> (common: Int, sameKind: Int) {
        var common = 0, sameKind = 0
        for e in entries {
            guard let o = other.entry(seq: e.seq) else { continue }
            common += 1
            if e.isDelta == o.isDelta {
                sameKind += 1
                if e.bytes != o.bytes {
                    throw Violation(
                        description: "seq \(e.seq): different \(e.isDelta ? "delta" : "full") frame bytes "
                            + "(\(e.bytes.count) B vs \(o.bytes.count) B)")
                }
            }
            if e.time != o.time {
                throw Violation(description: "seq \(e.seq): scene time \(e.time) vs \(o.time)")
            }
            if e.layers != o.layers {
                let differing = zip(e.layers, o.layers).filter { $0 != $1 }.map { "\($0.0.id)" }
                throw Violation(description: "seq \(e.seq): layers \(differing) differ")
            }
        }
        return (common, sameKind)
    }
}

/// What the presence layer (the topmost, id = widget count + 1) draws, read from its ops:
/// outlines (filled rects outside any owner run) and each client's dot (discs inside its run).
struct PresenceDrawing {
    struct Fill: Equatable {
        var color: Color
        var rect: Rect
    }
    struct Disc: Equatable {
        var color: Color
        var center: Point
        var radius: Double
    }

    /// Filled rects drawn outside any owner run, in order, with their fill colour.
    var rects: [Fill] = []
    /// Discs in each owner's run, by client id ("" or no owner: under the key "").
    var discs: [String: [Disc]] = [:]
    /// Client ids named by owner ops, in order (the empty id that ends a run excluded).
    var owners: [String] = []
    /// Ops other than state, rects, discs and owners (none are expected).
    var other = 0

    /// Interprets the ops with translate and save/restore, so a dot drawn at the origin of a
    /// translation is read at the point it lands on.
    init(ops: [DecodedOp]) {
        var fill = Color(0, 0, 0)
        var offset = Point(x: 0, y: 0)
        var stack: [(Color, Point)] = []
        var owner = ""
        for op in ops {
            switch op {
            case .save: stack.append((fill, offset))
            case .restore: if let top = stack.popLast() { (fill, offset) = top }
            case .translate(let dx, let dy): offset = Point(x: offset.x + dx, y: offset.y + dy)
            case .setFill(let c): fill = c
            case .setAlpha, .setStroke, .clip: break
            case .fillRect(let r):
                let moved = Rect(x: r.x + offset.x, y: r.y + offset.y, width: r.width, height: r.height)
                if owner.isEmpty { rects.append(Fill(color: fill, rect: moved)) } else { other += 1 }
            case .fillCircle(let c, let radius):
                let at = Point(x: c.x + offset.x, y: c.y + offset.y)
                discs[owner, default: []].append(Disc(color: fill, center: at, radius: radius))
            case .owner(let id):
                owner = id
                if !id.isEmpty { owners.append(id) }
            default: other += 1
            }
        }
    }

    /// The filled rects of one colour outside owner runs.
    func rects(of color: Color) -> [Rect] { rects.filter { $0.color == color }.map(\.rect) }

    /// True when `client`'s run holds its dot at `at`: a white disc of radius 7 and a disc of
    /// radius 5 in `color`, both centred there: the ring keeps the dot visible on any colour
    /// (docs/PROTOCOL.md, "Sharing a room").
    func hasDot(of client: String, color: Color, at: Point) -> Bool {
        let d = discs[client] ?? []
        func near(_ p: Point) -> Bool { abs(p.x - at.x) < 0.01 && abs(p.y - at.y) < 0.01 }
        // White in any alpha: the contract names none (the server draws the ring at 90 %).
        func white(_ c: Color) -> Bool { c.r == 255 && c.g == 255 && c.b == 255 }
        let ring = d.contains { $0.radius == 7 && white($0.color) && near($0.center) }
        return ring && d.contains { $0.radius == 5 && $0.color == color && near($0.center) }
    }

    /// True when the four rects in `color` outline `frame`: each 2 pt thick, inside it, and
    /// together reaching all four of its edges.
    func outlines(_ frame: Rect, in color: Color) -> Bool {
        let r = rects(of: color).filter { inside($0, frame) }
        guard r.count == 4, r.allSatisfy({ abs(min($0.width, $0.height) - 2) < 0.01 }) else { return false }
        let e = 0.01
        return r.contains { abs($0.minX - frame.minX) < e } && r.contains { abs($0.maxX - frame.maxX) < e }
            && r.contains { abs($0.minY - frame.minY) < e } && r.contains { abs($0.maxY - frame.maxY) < e }
    }

    private func inside(_ r: Rect, _ frame: Rect) -> Bool {
        r.minX >= frame.minX - 0.01 && r.maxX <= frame.maxX + 0.01 && r.minY >= frame.minY - 0.01
            && r.maxY <= frame.maxY + 0.01
    }
}

extension Color {
    /// `#RRGGBB` (the presence message's colours), opaque.
    init?(css: String) {
        guard css.count == 7, css.first == "#", let v = UInt32(css.dropFirst(), radix: 16) else { return nil }
        self.init(hex: v)
    }
}
