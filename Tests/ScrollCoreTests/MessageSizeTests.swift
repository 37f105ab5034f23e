import Testing

@testable import ScrollCore

/// docs/PROTOCOL.md, "Message sizes": what the server sends is bounded whatever clients send.
/// Each test builds the largest case the limits allow and checks it against the table.
@Suite("Message sizes: the worst cases stay within the documented maxima")
struct MessageSizeTests {
    /// The table's maxima (docs/PROTOCOL.md, "Message sizes").
    enum Documented {
        static let welcome = 384
        static let presence = 1024
        static let semantics = 24 * 1024
        static let events = 64 * 1024
        static let error = 1024
        static let appliedOrPong = 48
        static let appliedWithFollow = 192
        static let frame = 64 * 1024
    }

    /// A name at both of the carousel's bounds (32 characters, 128 bytes) that JSON writes
    /// longest: 31 control characters (`\u0001`, 6 bytes each) and one letter with 48
    /// combining marks (97 bytes), 285 bytes in quotes.
    static let longestName = String(repeating: "\u{1}", count: 31) + "e" + String(repeating: "\u{301}", count: 48)
    /// The longest client id: `c` and the largest 64-bit number.
    static let longestClient = "c\(Int.max)"
    /// A scene time that is written long (22 characters).
    static let longTime = 1e15 + 0.5

    @Test("the longest name is at the carousel's bounds and 285 bytes as JSON")
    func longestName() {
        #expect(Self.longestName.count == 32 && Self.longestName.utf8.count == 128)
        #expect(Carousel.itemName.validate(Self.longestName) != nil)
        #expect(JSONValue.string(Self.longestName).serialized.utf8.count == 285)
    }

    /// The demo restored with 50 items (49 with the longest name and the largest glyph, then
    /// Custom), the largest ids a snapshot allows, the longest numbers the others show.
    static func fullDemo() throws -> Scene {
        let scene = try #require(SceneCatalog.standard.make("demo"))
        let made = Int(Int32.max)
        let items: [JSONValue] =
            (0..<49).map { i in
                .object([("id", .number(Double(made - 50 + i))), ("name", .string(longestName)), ("icon", "sun")])
            } + [.object([("id", .number(Double(made - 1))), ("name", "Custom"), ("icon", "custom")])]
        var widgets = scene.snapshot().widgets
        for (i, widget) in widgets.enumerated() {
            switch widget.id {
            case "carousel":
                widgets[i].snapshot = .object([
                    ("items", .array(items)), ("selected", 48), ("made", .number(Double(made))),
                ])
            case "roller":
                widgets[i].snapshot = .object([("number", 99_999_999), ("queue", .array([])), ("columns", 8)])
            case "ruler": widgets[i].snapshot = .object([("value", 999.9)])
            default: break
            }
        }
        try scene.restore(SceneSnapshot(scene: "demo", widgets: widgets))
        return scene
    }

    @Test("semantics: 50 items with the longest names, the longest ids, selected: ≤ 24 KiB")
    func semantics() throws {
        let scene = try Self.fullDemo()
        let carousel = try #require(scene.widget("carousel") as? Carousel)
        #expect(carousel.count == Carousel.maxItems && carousel.selectedName == Self.longestName)
        let size = ServerMessage.semantics(scene.semantics).utf8.count
        #expect(size <= Documented.semantics, "\(size) B")
        #expect(size > 50 * 285, "every name is in it")
    }

    @Test("welcome: the longest room name and client id, each scene: ≤ 384 B")
    func welcome() throws {
        let room = String(repeating: "r", count: 64)
        #expect(ClientMessage.isValidRoom(room))
        for name in SceneCatalog.standard.entries.map(\.name) {
            let scene = try #require(SceneCatalog.standard.make(name))
            let text = ServerMessage.welcome(
                client: Self.longestClient, color: Presence.palette[0], room: room, scene: scene, theme: "light")
            #expect(text.utf8.count <= Documented.welcome, "\(name): \(text.utf8.count) B")
        }
    }

    @Test("presence: 100 clients with the longest ids: ≤ 1 KiB")
    func presence() {
        var p = Presence()
        for i in 0..<100 { p.join("c\(Int.max - i)") }
        let size = ServerMessage.presence(p).utf8.count
        #expect(size <= Documented.presence, "\(size) B")
    }

    /// 40 of each type the demo's widgets send (docs/PROTOCOL.md: ruler value; picker value,
    /// moved, haptic; carousel selected, added, deleted; roller value), each as long as it gets.
    static func everyEvent(_ n: Int) -> [SceneEvent] {
        let t = longTime
        let kinds: [(String, SceneEvent.Kind)] = [
            ("ruler", .value(999.9, text: "999.9", final: false)),
            ("picker", .value(100, text: "100", final: false)), ("picker", .moved(100)),
            ("picker", .haptic("selection")),
            ("carousel", .selected(index: 48, name: longestName)), ("carousel", .added(index: 48, name: longestName)),
            ("carousel", .deleted(index: 48, name: longestName)),
            ("roller", .value(99_999_999, text: "99999999", final: true)),
        ]
        return (0..<n).flatMap { _ in kinds.map { SceneEvent(time: t, widget: $0.0, kind: $0.1) } }
    }

    @Test("events: 40 of every type each widget sends, the longest names and times: ≤ 64 KiB")
    func events() throws {
        let events = Self.everyEvent(40)
        let text = ServerMessage.events(events)
        #expect(text.utf8.count <= Documented.events, "\(text.utf8.count) B")
        // The budget is what bounds it: 32 of each of the 8 kinds above.
        guard case .object(let fields) = try JSONParser.parse(text), case .array(let sent)? = fields.last?.1 else {
            Issue.record("\(text.prefix(80))")
            return
        }
        #expect(sent.count == 8 * EventBudget.perWidget)
    }

    @Test("events with a glide's most sent ahead (512, the server's bound) and a cancel: ≤ 64 KiB")
    func eventsAhead() throws {
        // The longest a run's events are: a value, a tick moved to and its click, at distinct times.
        let ahead = (0..<512).map { i in
            let t = Self.longTime + Double(i)
            return [
                SceneEvent(time: t, widget: "picker", kind: .value(999.9, text: "999.9 kg", final: false)),
                SceneEvent(time: t, widget: "picker", kind: .moved(100)),
                SceneEvent(time: t, widget: "picker", kind: .haptic("selection")),
            ][i % 3]
        }
        let text = ServerMessage.events(
            Self.everyEvent(40), ahead: ahead, cancel: [(widget: "ruler", after: Self.longTime)])
        #expect(text.utf8.count <= Documented.events, "\(text.utf8.count) B")
    }

    @Test("error: the longest widget id and action name quoted, and a long field quoted: ≤ 1 KiB")
    func error() throws {
        let scene = try #require(SceneCatalog.standard.make("demo"))
        // 64 characters, 256 bytes, written longest: 63 control characters and a letter with 96 marks.
        let id = String(repeating: "\u{1}", count: 63) + "e" + String(repeating: "\u{301}", count: 96)
        #expect(FieldRules.widgetID.validate(id) != nil)
        var messages: [String] = []
        for action in [ActionInput(widget: id, name: "a"), ActionInput(widget: "carousel", name: id)] {
            do throws(ActionError) { try scene.check(action) } catch { messages.append(error.message) }
        }
        let huge = "e" + String(repeating: "\u{301}", count: 8000)
        for text in [
            #"{"type":"key","key":"\#(huge)","t":1}"#, #"{"type":"\#(huge)"}"#,
            #"{"type":"key","key":"\#(String(repeating: #"\u0001"#, count: 40))","t":1}"#,
        ] {
            guard case .failure(let e) = ClientMessage.parse(text) else {
                Issue.record("accepted: \(text.prefix(40))")
                continue
            }
            messages.append(e.message)
        }
        #expect(messages.count == 5)
        for message in messages {
            let size = ServerMessage.error(ProtocolError(.badAction, message), fatal: true).utf8.count
            #expect(size <= Documented.error, "\(size) B: \(message.prefix(40))")
        }
    }

    @Test("applied and pong: the longest number: ≤ 48 B")
    func appliedAndPong() {
        #expect(ServerMessage.applied(t: .greatestFiniteMagnitude).utf8.count <= Documented.appliedOrPong)
        #expect(ServerMessage.pong(t: -.greatestFiniteMagnitude).utf8.count <= Documented.appliedOrPong)
        let longest = -Double.greatestFiniteMagnitude
        let follow = LayerFollow(
            layer: .max, follow: PointerFollow(axis: .x, ratio: longest, range: longest...(-1e-300)))
        #expect(ServerMessage.applied(t: longest, follow: follow).utf8.count <= Documented.appliedWithFollow)
        // A client's own t, echoed as it wrote it: kept only up to 24 bytes, the longest formatted.
        let written = NumberText("1.0000000000000000000e+2")
        #expect(written?.count == 24)
        #expect(ServerMessage.applied(t: 100, text: written, followField: nil).utf8.count <= Documented.appliedOrPong)
        let field = ServerMessage.appliedFollowField(follow)
        #expect(
            ServerMessage.applied(t: 100, text: written, followField: field).utf8.count <= Documented.appliedWithFollow)
    }

    @Test("a frame: every widget held, 50 items leaving and 50 coming, cross-faded, 100 dots; 50 sliding: ≤ 64 KiB")
    func frame() throws {
        let scene = try Self.fullDemo()
        // Every widget held by a client of its own, as its outline is drawn.
        for (i, widget) in scene.widgets.enumerated() {
            let key = PointerKey(client: "c\(Int.max - i)", pointer: 1)
            scene.apply(
                .pointer(
                    PointerInput(
                        phase: .down, key: key, position: Point(x: widget.frame.midX, y: widget.frame.midY),
                        clientTime: 0)), at: 1)
        }
        // All at one instant: every item but Custom deleted, the row filled again, one more deleted
        // and added (50 leaving, the most kept), each new name the longest.
        func act(_ name: String, _ args: [String: JSONValue]) {
            scene.apply(.action(ActionInput(widget: "carousel", name: name, args: args)), at: 1)
        }
        for _ in 0..<49 { act("delete", ["index": 0]) }
        for _ in 0..<49 { act("add", ["name": .string(Self.longestName)]) }
        act("delete", ["index": 0])
        act("add", ["name": .string(Self.longestName)])
        let carousel = try #require(scene.widget("carousel") as? Carousel)
        #expect(carousel.count == Carousel.maxItems && carousel.leaving.count == Carousel.maxItems)
        scene.advance(to: 1.15)
        var presence = Presence()
        for i in 0..<100 {
            presence.join("c\(Int.max - i)")
            presence.track(.hover(at: Point(x: Double(i), y: 500), t: 0), from: "c\(Int.max - i)")
        }
        #expect(scene.holders.count >= 5, "buttons, dials and the carousel hold a pointer")
        for theme in Theme.all + Theme.all.map({ $0.reducingMotion(true) }) {
            // As the room draws a frame: the scene's layers, then presence on top.
            var layers = scene.render(theme: theme)
            var dots = DisplayList()
            presence.render(holders: scene.holders.map { (scene.widgets[$0.widget].frame, $0.client) }, into: &dots)
            layers.append(Layer(id: UInt16(scene.widgets.count + 1), list: dots))
            var encoder = FrameEncoder()
            let size = encoder.encode(layers, time: Self.longTime).full.count
            #expect(size <= Documented.frame, "\(theme.renderKey): \(size) B")
        }
        // Once they have come and gone the row keeps that drawing (its finished tweens, the 50
        // faded out), measured above; a restored row of 50 has no change to play: each item under
        // its lenses alone.
        #expect(try Self.fullDemo().widget("carousel").map { ($0 as? Carousel)?.change == nil } == true)
        for theme in Theme.all {
            var encoder = FrameEncoder()
            let size = encoder.encode(try Self.fullDemo().render(theme: theme), time: Self.longTime).full.count
            #expect(size <= Documented.frame, "\(theme.renderKey), sliding: \(size) B")
        }
    }
}
