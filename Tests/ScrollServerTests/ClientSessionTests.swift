import Foundation
import ScrollCore
import Testing

@testable import ScrollServer

/// One client's messages turned into effects (docs/PROTOCOL.md, "Client → server"), as
/// transcripts: no socket, no clock.
@Suite("Client session transcripts")
struct ClientSessionTests {
    private let directory = RoomDirectory(scenes: .standard, maxRooms: 4, maxStored: nil, headroom: testHeadroom)
    private var rooms: DirectoryJoining { DirectoryJoining(directory: directory) }
    private let hello = ClientMessage.hello(.init(room: "r", scene: "ruler")).encoded()

    private func joined(id: UInt64 = 1, rate: Double = 1000) -> ClientSession {
        let session = ClientSession(id: id, messagesPerSecond: rate, now: 0)
        _ = session.receive(hello, now: 0, rooms: rooms)
        return session
    }

    private func json(_ effect: SessionEffect?) -> [String: Any] {
        guard case .welcome(let text)? = effect else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    @Test("hello: the welcome (client, colour, room, theme), joined, then a publish so the others see the newcomer")
    func welcomes() {
        let session = ClientSession(id: 7, messagesPerSecond: 1000, now: 0)
        let effects = session.receive(hello, now: 0, rooms: rooms)
        #expect(effects.count == 3)
        let welcome = json(effects.first)
        #expect(welcome["client"] as? String == "c7")
        #expect(welcome["room"] as? String == "r")
        #expect(welcome["theme"] as? String == "light")
        #expect(welcome["color"] as? String == "#1C7ED6", "the first colour of the palette")
        #expect(Array(effects.dropFirst()) == [.joined(room: "r"), .publish([])])
        #expect(directory.members(of: "r") == [7])

        let again = session.receive(hello, now: 1, rooms: rooms)
        #expect(again == [.refuse(ProtocolError(.badMessage, "hello was already received on this connection"))])
    }

    @Test("before hello only ping is answered; input is refused with not_ready; a bad message with its code")
    func beforeHello() {
        let session = ClientSession(id: 1, messagesPerSecond: 1000, now: 0)
        #expect(session.receive(ClientMessage.ping(t: 5).encoded(), now: 0, rooms: rooms) == [.pong(t: 5)])
        #expect(
            session.receive(ClientMessage.key(key: "ArrowLeft", widget: nil, t: 1).encoded(), now: 0, rooms: rooms)
                == [.refuse(ProtocolError(.notReady, "send hello before input"))])
        let bad = session.receive("{", now: 0, rooms: rooms)
        guard case .refuse(let error)? = bad.first else { return #expect(Bool(false), "\(bad)") }
        #expect(error.code == .badJSON)
    }

    @Test("another protocol, an unknown scene or a full server close the connection with the reason")
    func refusedHellos() {
        let old = ClientSession(id: 1, messagesPerSecond: 1000, now: 0)
        let effects = old.receive(ClientMessage.hello(.init(version: 1, room: "r")).encoded(), now: 0, rooms: rooms)
        guard case .close(let error)? = effects.first else { return #expect(Bool(false), "\(effects)") }
        #expect(error.code == .protocolMismatch)
        #expect(error.message.contains("the page speaks protocol 1, this server speaks \(ProtocolVersion.current)"))

        let unknown = ClientSession(id: 2, messagesPerSecond: 1000, now: 0)
        let hello = ClientMessage.hello(.init(room: "r", scene: "nope")).encoded()
        #expect(
            unknown.receive(hello, now: 0, rooms: rooms)
                == [.close(ProtocolError(.unknownScene, SceneCatalog.standard.unknown("nope")))])
    }

    @Test("input: recorded with the room's time and the default focus named, echoed by t, then published")
    func input() {
        let session = joined()
        let effects = session.receive(
            ClientMessage.key(key: "ArrowRight", widget: nil, t: 42).encoded(), now: 2.5, rooms: rooms)
        #expect(effects.count == 3)
        #expect(effects.first == .record(.key(key: "ArrowRight", widget: "ruler", t: 42), roomTime: 2.5))
        #expect(effects.dropFirst().first == .applied(t: 42, follow: nil))
        guard case .publish? = effects.last else { return #expect(Bool(false), "\(effects)") }
    }

    @Test("a pointer holding the ruler is echoed with how its layer follows: x, one to one, within what is drawn")
    func appliedWithFollow() {
        let session = joined()
        let down = session.receive(
            ClientMessage.pointer(.init(phase: .down, id: 1, x: 200, y: 214, t: 7)).encoded(), now: 1, rooms: rooms)
        // The ruler is the scene's second widget (layer 2). At 72.5 kg its content offset is 7,250
        // pt; held, it is drawn for offsets 400 pt either side of its 200 pt step (6,800…7,800),
        // with its origin at the down's step (7,200): its layer's offset may go from −600 to 400.
        let follow = LayerFollow(layer: 2, follow: PointerFollow(axis: .x, ratio: 1, range: -600...400))
        #expect(down.dropFirst().first == .applied(t: 7, follow: follow, text: NumberText("7")))
        let up = session.receive(
            ClientMessage.pointer(.init(phase: .up, id: 1, x: 200, y: 214, t: 9)).encoded(), now: 1.1, rooms: rooms)
        #expect(up.dropFirst().first == .applied(t: 9, follow: nil, text: NumberText("9")), "let go: nothing follows")
    }

    @Test(
        "a pointer's t is echoed as the page wrote it (7.250 stays 7.250); a key's, read as a whole message, as formatted"
    )
    func appliedText() {
        let session = joined()
        let down = session.receive(
            #"{"type":"pointer","phase":"down","id":1,"x":200,"y":214,"t":7.250}"#, now: 1, rooms: rooms)
        guard case .applied(let t, _, let text)? = down.dropFirst().first else {
            Issue.record("\(down)")
            return
        }
        #expect(t == 7.25)
        #expect(text?.description == "7.250")
        let key = session.receive(#"{"type":"key","key":"ArrowRight","t":8.50}"#, now: 1.1, rooms: rooms)
        guard case .applied(8.5, _, let keyText)? = key.dropFirst().first else {
            Issue.record("\(key)")
            return
        }
        #expect(keyText == nil, "no text: formatted when written")
    }

    @Test("an action the room cannot perform is refused with bad_action and neither recorded nor applied")
    func badAction() {
        let session = joined()
        let effects = session.receive(
            ClientMessage.action(.init(widget: nil, action: "explode", t: 1)).encoded(), now: 1, rooms: rooms)
        guard case .refuse(let error)? = effects.first, effects.count == 1 else {
            return #expect(Bool(false), "\(effects)")
        }
        #expect(error.code == .badAction)
    }

    @Test("at most 10 pointers down: the 11th down is refused; a lifted one frees its place")
    func pointers() {
        let session = joined()
        func pointer(_ phase: PointerPhase, _ id: Int) -> [SessionEffect] {
            session.receive(
                ClientMessage.pointer(.init(phase: phase, id: id, x: 10, y: 10, t: 1)).encoded(), now: 1, rooms: rooms)
        }
        for id in 1...10 { #expect(pointer(.down, id).first?.isRecord == true) }
        let refused = pointer(.down, 11)
        #expect(
            refused == [
                .refuse(
                    ProtocolError(
                        .badMessage, "pointer 11 is one too many: at most 10 pointers may be down at once"))
            ])
        #expect(pointer(.up, 3).first?.isRecord == true)
        #expect(pointer(.down, 11).first?.isRecord == true)
    }

    @Test(
        "hover: no record, no echo; a tick while the dot waits, once someone else can see it. preferences: a full frame only when the theme changes"
    )
    func hoverAndPreferences() {
        let session = joined()
        // Alone in the room: its dot is drawn for nobody (a client never sees its own), no tick.
        #expect(session.receive(ClientMessage.hover(at: Point(x: 4, y: 4), t: 1).encoded(), now: 1, rooms: rooms) == [])
        _ = joined(id: 2)
        #expect(
            session.receive(ClientMessage.hover(at: Point(x: 5, y: 5), t: 1).encoded(), now: 1, rooms: rooms) == [.tick]
        )
        #expect(
            session.receive(
                ClientMessage.preferences(theme: "light", reducedMotion: nil).encoded(), now: 1, rooms: rooms) == [])
        #expect(
            session.receive(
                ClientMessage.preferences(theme: "dark", reducedMotion: nil).encoded(), now: 1, rooms: rooms) == [
                    .restartFrames
                ])
        #expect(session.theme.name == "dark")
        #expect(
            session.receive(
                ClientMessage.preferences(theme: "dark", reducedMotion: nil).encoded(), now: 1, rooms: rooms) == [])
    }

    @Test("the rate limit: a burst of twice the rate, then dropped with one notice a second")
    func rateLimit() {
        let session = joined(rate: 2)  // the hello took one of the 4
        let ping = ClientMessage.ping(t: 1).encoded()
        for _ in 0..<3 { #expect(session.receive(ping, now: 0, rooms: rooms) == [.pong(t: 1)]) }
        #expect(
            session.receive(ping, now: 0, rooms: rooms)
                == [.refuse(ProtocolError(.rateLimited, "more than 2 messages per second; input dropped"))])
        #expect(session.receive(ping, now: 0.4, rooms: rooms) == [])
        #expect(session.receive(ping, now: 0.5, rooms: rooms) == [.pong(t: 1)], "one token back after 0.5 s")
        #expect(session.droppedMessages == 2)
    }

    @Test("leaving: the leave is recorded at room time, the directory told, the release published")
    func leave() {
        let session = joined()
        let effects = session.leave(now: 3)
        #expect(Array(effects.prefix(2)) == [.recordLeave(roomTime: 3), .left(room: "r")])
        guard case .publish? = effects.last else { return #expect(Bool(false), "\(effects)") }
        #expect(ClientSession(id: 9, messagesPerSecond: 1, now: 0).leave(now: 1) == [], "never joined: nothing")
    }

    @Test("a pointer quiet for 30 s is lifted where it last was, its client time moved on by the silence")
    func quietPointer() {
        let session = joined()
        _ = session.receive(
            ClientMessage.pointer(.init(phase: .down, id: 4, x: 200, y: 214, t: 1000, pointerType: "touch")).encoded(),
            now: 1, rooms: rooms)
        _ = session.receive(
            ClientMessage.pointer(.init(phase: .move, id: 4, x: 180, y: 214, t: 1016, pointerType: "touch")).encoded(),
            now: 1.016, rooms: rooms)
        #expect(session.releaseQuietPointers(now: 31.015) == [], "29.999 s after its last message")
        let released = session.releaseQuietPointers(now: 31.016)
        let up = ClientMessage.pointer(.init(phase: .up, id: 4, x: 180, y: 214, t: 31_016, pointerType: "touch"))
        #expect(released.first == .record(up, roomTime: 31.016))
        #expect(released.dropFirst().first == .applied(t: 31_016, follow: nil))
        #expect(!session.holdsPointers)
        #expect(session.releaseQuietPointers(now: 100) == [], "nothing left to let go")
    }

    @Test("hello is overdue 10 s after the connection opened, not before, and never once joined")
    func helloDeadline() {
        let waiting = ClientSession(id: 1, messagesPerSecond: 1000, now: 5)
        #expect(!waiting.helloOverdue(now: 14.999))
        #expect(waiting.helloOverdue(now: 15))
        #expect(!joined().helloOverdue(now: 1000))
    }
}

extension SessionEffect {
    fileprivate var isRecord: Bool { if case .record = self { true } else { false } }
}
