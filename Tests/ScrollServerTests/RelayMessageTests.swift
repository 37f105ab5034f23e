import ScrollCore
import Testing

@testable import ScrollServer

/// The relay messages' bytes (docs/CLUSTER.md, "Relays"): every kind comes back as it went, and
/// bytes that are not one are refused, not misread.
@Suite struct RelayMessageTests {
    @Test func everyInboundKindRoundTrips() throws {
        let messages: [RelayInbound] = [
            .message(node: "b", client: 1 << 62 + 7, text: "{\"type\":\"hello\",\"room\":\"é\"}"),
            .left(node: "node-2", client: 0), .alive(node: ""), .hello(node: "c", client: 3, owner: "a", text: "{}"),
        ]
        for message in messages { #expect(try RelayInbound(decoding: message.encoded) == message) }
    }

    @Test func everyOutboundKindRoundTrips() throws {
        let messages: [RelayOutbound] = [
            .frame(theme: "dark-rm", seq: 4_000_000_001, changed: true, delta: [0, 255, 7], full: Array(0...255)),
            .frame(theme: "light", seq: 1, changed: false, delta: [], full: []),
            .events("{\"type\":\"events\"}"), .semantics("s"), .presence("p"),
            .toClient(node: "b", client: 9, .welcome("w")),
            .toClient(node: "b", client: 9, .error(code: "bad_action", message: "no such widget")),
            .toClient(node: "b", client: 9, .fatal(code: "room_moved", message: "reconnect")),
            .toClient(node: "b", client: 9, .applied(t: 1234.5625, follow: nil)),
            .toClient(
                node: "b", client: 9,
                .applied(
                    t: 7,
                    follow: LayerFollow(layer: 2, follow: PointerFollow(axis: .y, ratio: -0.5, range: -1000...0.25)))),
            .toClient(node: "b", client: 9, .restartFrames(theme: "dark")), .closed,
        ]
        for message in messages { #expect(try RelayOutbound(decoding: message.encoded) == message) }
    }

    @Test func truncatedUnknownOrLongerBytesAreRefused() {
        let frame = RelayOutbound.frame(theme: "light", seq: 3, changed: true, delta: [1, 2], full: [3]).encoded
        for cut in 0..<frame.count {
            #expect(throws: (any Error).self) { try RelayOutbound(decoding: Array(frame[..<cut])) }
        }
        #expect(throws: (any Error).self) { try RelayOutbound(decoding: frame + [0]) }
        #expect(throws: (any Error).self) { try RelayOutbound(decoding: [99]) }
        #expect(throws: (any Error).self) { try RelayInbound(decoding: [0]) }
        #expect(throws: (any Error).self) {
            try RelayInbound(decoding: RelayInbound.alive(node: "a").encoded.dropLast() + [])
        }
    }
}
