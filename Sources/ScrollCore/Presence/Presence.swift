/// Who is in a room and where their pointers are (docs/PROTOCOL.md, "Sharing a room").
///
/// A client's colour is fixed when it joins — the lowest palette slot no one in the room
/// holds — so it stays the same while the client stays, and a newcomer takes a freed slot
/// rather than shifting everyone's. Drawn as the room's topmost layer (`render`): holders'
/// outlines for everyone, and each client's pointer dot, owned so that its own page skips it.
public struct Presence: Sendable {
    /// Distinct on both themes' backgrounds; slot k uses `palette[k % 8]`.
    public static let palette: [Color] = [
        Color(hex: 0x1C7ED6), Color(hex: 0xE8590C), Color(hex: 0x2F9E44), Color(hex: 0xAE3EC9),
        Color(hex: 0xE03131), Color(hex: 0x0C8599), Color(hex: 0xF08C00), Color(hex: 0x6741D9),
    ]
    /// Clients a presence message lists by name (the page shows at most 8 chips); `count` gives the rest.
    public static let listed = 16
    public static let outlineWidth = 2.0
    public static let dotRadius = 5.0
    /// A white ring around the dot keeps it visible over any colour.
    public static let ringRadius = 7.0
    /// Dots drawn: those of the first clients in join order with a pointer over the scene.
    /// Every frame goes to everyone, so a crowded room's must not grow with it (a dot is ≤ 60
    /// bytes); far more than a canvas can show apart.
    public static let maxDots = 64

    public struct Member: Sendable, Equatable {
        public let client: String
        public let slot: Int
        /// Where its mouse hovers or its pointer drags; nil: off the scene.
        public var cursor: Point?
        public var color: Color { Presence.palette[slot % Presence.palette.count] }
    }

    /// In join order.
    public private(set) var members: [Member] = []

    public init() {}

    public func color(of client: String) -> Color? { members.first { $0.client == client }?.color }

    /// Adds `client` (once) with the lowest free slot; returns its colour.
    @discardableResult
    public mutating func join(_ client: String) -> Color {
        if let known = color(of: client) { return known }
        let taken = Set(members.map(\.slot))
        let slot = (0...).first { !taken.contains($0) }!
        members.append(Member(client: client, slot: slot, cursor: nil))
        return Self.palette[slot % Self.palette.count]
    }

    public mutating func leave(_ client: String) { members.removeAll { $0.client == client } }

    /// Follows `client`'s pointer from what it sent; returns whether its dot moved. A hover
    /// places it (or takes it off the scene); a pointer's samples carry it while down; a touch
    /// that lifts takes it away (a mouse stays where it is).
    @discardableResult
    public mutating func track(_ message: ClientMessage, from client: String) -> Bool {
        let cursor: Point?
        switch message {
        case .hover(let at, _):
            cursor = at
        case .pointer(let p):
            switch p.phase {
            case .down, .move:
                guard let last = p.samples.last else { return false }
                cursor = Point(x: last.x, y: last.y)
            case .up, .cancel:
                guard p.pointerType == "touch" else { return false }
                cursor = nil
            }
        default:
            return false
        }
        guard let i = members.firstIndex(where: { $0.client == client }), members[i].cursor != cursor else {
            return false
        }
        members[i].cursor = cursor
        return true
    }

    /// The presence layer: an outline just inside each held widget's frame in its holder's
    /// colour, then each client's dot (at most `maxDots`), owned by that client. Only when the
    /// room is shared: alone, whose it is goes without saying, and a client never sees its own dot.
    public func render(holders: [(frame: Rect, client: String)], into list: inout DisplayList) {
        guard members.count > 1 else { return }
        let w = Self.outlineWidth
        for (f, client) in holders {
            guard let color = color(of: client) else { continue }
            list.setFill(color)
            list.fillRect(Rect(x: f.x, y: f.y, width: f.width, height: w))
            list.fillRect(Rect(x: f.x, y: f.y + f.height - w, width: f.width, height: w))
            list.fillRect(Rect(x: f.x, y: f.y + w, width: w, height: f.height - 2 * w))
            list.fillRect(Rect(x: f.x + f.width - w, y: f.y + w, width: w, height: f.height - 2 * w))
        }
        for m in members.lazy.filter({ $0.cursor != nil }).prefix(Self.maxDots) {
            guard let at = m.cursor else { continue }
            // Saved and restored inside the run: the page that skips it keeps the same state.
            list.owner(m.client)
            list.save()
            list.setFill(Color(255, 255, 255, 230))
            list.fillCircle(center: at, radius: Self.ringRadius)
            list.setFill(m.color)
            list.fillCircle(center: at, radius: Self.dotRadius)
            list.restore()
        }
    }
}

extension Color {
    /// `#RRGGBB` (alpha left out), as CSS reads it.
    public var hexString: String {
        let digits = Array("0123456789ABCDEF")
        return "#" + String([r, g, b].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}
