import Testing

@testable import ScrollCore

/// `applied` (docs/PROTOCOL.md, "Server → client"): `t`, the client's own timestamp, and while its
/// pointer holds a widget whose layer follows it, `follow` `{layer, axis, ratio, min, max}`.
@Suite struct AppliedMessageTests {
    @Test("applied: the client's t as sent, and the layer its pointer drags with its axis, ratio and bounds")
    func written() throws {
        #expect(ServerMessage.applied(t: 12.5) == #"{"type":"applied","t":12.5}"#)
        #expect(ServerMessage.applied(t: 31016) == #"{"type":"applied","t":31016}"#)
        // The ruler (layer 2) follows a finger one to one on x, within its drawing's 400 pt either side.
        let ruler = LayerFollow(layer: 2, follow: PointerFollow(axis: .x, ratio: 1, range: (-1_234.5)...(-434.5)))
        #expect(
            ServerMessage.applied(t: 1234.5625, follow: ruler)
                == #"{"type":"applied","t":1234.5625,"follow":{"layer":2,"axis":"x","ratio":1,"min":-1234.5,"max":-434.5}}"#
        )
        // What a page reads back: the same numbers.
        let parsed = try JSONParser.parse(ServerMessage.applied(t: 7, follow: ruler))
        guard case .object(let fields) = parsed,
            case .object(let follow)? = fields.first(where: { $0.0 == "follow" })?.1
        else { Issue.record("not an object: \(parsed)"); return }
        #expect(follow.first { $0.0 == "min" }?.1 == .number(-1234.5))
        #expect(fields.first { $0.0 == "t" }?.1 == .number(7))
    }
}
