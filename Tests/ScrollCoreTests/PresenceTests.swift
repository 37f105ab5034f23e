import Testing

@testable import ScrollCore

/// Who is in a room, their colours and their pointer dots (docs/PROTOCOL.md,
/// "Sharing a room").
@Suite struct PresenceTests {
    static let blue = Color(hex: 0x1C7ED6), orange = Color(hex: 0xE8590C), green = Color(hex: 0x2F9E44)

    func hover(_ x: Double, _ y: Double) -> ClientMessage { .hover(at: Point(x: x, y: y), t: 1) }

    func pointer(_ phase: PointerPhase, _ type: String, x: Double = 10, y: Double = 20) -> ClientMessage {
        .pointer(.init(phase: phase, id: 1, pointerType: type, samples: [.init(x: x, y: y, t: 1)]))
    }

    @Test("colours: the lowest free slot at join, stable while the client stays; a leaver's slot is reused")
    func colours() {
        var p = Presence()
        let first = [p.join("c1"), p.join("c2"), p.join("c3")]
        #expect(first == [Self.blue, Self.orange, Self.green])
        p.leave("c1")
        // c2 and c3 keep theirs; the newcomer takes the freed first slot.
        #expect(p.color(of: "c2") == Self.orange && p.color(of: "c3") == Self.green)
        let fourth = p.join("c4")
        #expect(fourth == Self.blue)
        #expect(p.members.map(\.client) == ["c2", "c3", "c4"])
        // Joining twice changes nothing.
        let again = p.join("c2")
        #expect(again == Self.orange && p.members.count == 3)
        // Past the palette, colours repeat in order.
        for i in 5...10 { p.join("c\(i)") }
        #expect(p.color(of: "c10") == Self.blue)
        #expect(Set(p.members.prefix(8).map(\.color)).count == 8)
    }

    @Test("the presence message lists clients in join order with #RRGGBB colours, and how many there are")
    func message() {
        var p = Presence()
        p.join("c7")
        p.join("c2")
        #expect(
            ServerMessage.presence(p)
                == ##"{"type":"presence","clients":[{"id":"c7","color":"#1C7ED6"},{"id":"c2","color":"#E8590C"}],"count":2}"##
        )
    }

    @Test("a crowded room's presence message names the first 16 and counts everyone: small however many join")
    func crowded() throws {
        var p = Presence()
        for i in 1...4000 { p.join("c\(i)") }
        let text = ServerMessage.presence(p)
        #expect(text.utf8.count < 1024, "\(text.utf8.count) B")
        let json = try JSONParser.parse(text)
        guard case .object(let fields) = json, case .array(let listed)? = fields.first(where: { $0.0 == "clients" })?.1
        else {
            Issue.record("\(text)")
            return
        }
        #expect(listed.count == 16)
        #expect(fields.contains { $0.0 == "count" && $0.1 == 4000 })
        #expect(text.contains(##"{"id":"c1","color":"#1C7ED6"}"##) && text.contains(##""id":"c16""##))
        #expect(!text.contains(##""id":"c17""##))
    }

    @Test("a dot follows hover and a pointer's samples; hover out and a lifted touch remove it; a mouse up keeps it")
    func cursor() {
        var p = Presence()
        p.join("c1")
        // Each step: the message, whether the dot moved, where it is after.
        let steps: [(ClientMessage, String, Bool, Point?)] = [
            (hover(5, 6), "c1", true, Point(x: 5, y: 6)),
            (hover(5, 6), "c1", false, Point(x: 5, y: 6)),  // no move, no change
            (pointer(.down, "mouse", x: 7), "c1", true, Point(x: 7, y: 20)),
            (pointer(.up, "mouse", x: 7), "c1", false, Point(x: 7, y: 20)),
            (.hover(at: nil, t: 2), "c1", true, nil),
            (pointer(.move, "touch", x: 9), "c1", true, Point(x: 9, y: 20)),
            (pointer(.cancel, "touch"), "c1", true, nil),
            // Someone not in the room, and messages that are not pointers, move nothing.
            (hover(1, 1), "c9", false, nil),
            (.ping(t: 1), "c1", false, nil),
        ]
        for (i, (message, client, moves, after)) in steps.enumerated() {
            #expect(p.track(message, from: client) == moves, "step \(i)")
            #expect(p.members[0].cursor == after, "step \(i)")
        }
    }

    @Test("the layer: the holder's outline inside the held widget, then each dot owned by its client")
    func layer() throws {
        var p = Presence()
        p.join("c1")
        p.join("c2")
        _ = p.track(hover(100, 200), from: "c2")
        var list = DisplayList()
        p.render(holders: [(Rect(x: 0, y: 150, width: 390, height: 128), "c1")], into: &list)
        let ops = try DisplayListDecoder.decode(list.bytes)
        #expect(
            ops == [
                .setFill(Self.blue),
                .fillRect(Rect(x: 0, y: 150, width: 390, height: 2)),
                .fillRect(Rect(x: 0, y: 276, width: 390, height: 2)),
                .fillRect(Rect(x: 0, y: 152, width: 2, height: 124)),
                .fillRect(Rect(x: 388, y: 152, width: 2, height: 124)),
                .owner("c2"), .save,
                .setFill(Color(255, 255, 255, 230)),
                .fillCircle(Point(x: 100, y: 200), radius: 7),
                .setFill(Self.orange),
                .fillCircle(Point(x: 100, y: 200), radius: 5), .restore,
            ])
        // Nobody holding, nobody hovering: an empty layer.
        var empty = DisplayList()
        _ = p.track(.hover(at: nil, t: 2), from: "c2")
        p.render(holders: [], into: &empty)
        #expect(empty.bytes.isEmpty)
        // Alone in the room, a holder gets no outline: whose it is goes without saying.
        var alone = Presence()
        alone.join("c1")
        var solo = DisplayList()
        alone.render(holders: [(Rect(x: 0, y: 150, width: 390, height: 128), "c1")], into: &solo)
        #expect(solo.bytes.isEmpty)
    }

    @Test("at most 64 dots: those of the first clients in join order with a pointer over the scene")
    func dotsCap() throws {
        var p = Presence()
        for i in 1...100 { p.join("c\(i)") }
        // c1 never hovers: the 64 dots are c2 … c65's.
        for i in 2...100 { _ = p.track(hover(Double(i), 200), from: "c\(i)") }
        var list = DisplayList()
        p.render(holders: [], into: &list)
        let owners = try DisplayListDecoder.decode(list.bytes).compactMap { op -> String? in
            if case .owner(let id) = op { id } else { nil }
        }
        #expect(owners == (2...65).map { "c\($0)" })
    }

    @Test("the owner op: a byte count and the UTF-8 id; an empty id ends the run")
    func ownerOp() throws {
        var list = DisplayList()
        list.owner("c12")
        list.owner("")
        #expect(list.bytes == [0x0F, 3, 0x63, 0x31, 0x32, 0x0F, 0])
        #expect(try DisplayListDecoder.decode(list.bytes) == [.owner("c12"), .owner("")])
        #expect(throws: DisplayListDecodingError.self) { try DisplayListDecoder.decode([0x0F, 4, 0x63]) }
    }
}
