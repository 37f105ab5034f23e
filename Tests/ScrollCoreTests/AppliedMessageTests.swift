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

/// `applied`'s `t` as the client wrote it: read with a pointer message, echoed byte for byte.
@Suite struct EchoedTimeTests {
    private func timeText(_ text: String) -> NumberText? {
        var time: NumberText?
        _ = ClientMessage.parse(text, timeText: &time)
        return time
    }

    @Test(
        "a pointer's t is kept as written: digits, exponent and trailing zeros; a move with coalesced samples keeps the last one's"
    )
    func kept() {
        #expect(timeText(#"{"type":"pointer","phase":"down","id":1,"x":1,"y":2,"t":7.50}"#)?.description == "7.50")
        #expect(timeText(#"{"type":"pointer","phase":"up","id":1,"x":1,"y":2,"t": 1.5E3 }"#)?.description == "1.5E3")
        let coalesced =
            #"{"type":"pointer","phase":"move","id":1,"x":9,"y":9,"t":9,"coalesced":[[1,2,3.0],[4,5, 6.25 ]]}"#
        #expect(timeText(coalesced)?.description == "6.25")
        // A down ignores its coalesced samples (as `parse` does): its own t.
        #expect(
            timeText(#"{"type":"pointer","phase":"down","id":1,"x":9,"y":9,"t":9.0,"coalesced":[[1,2,3]]}"#)
                == NumberText("9.0"))
    }

    @Test("none kept for other messages, for a t longer than 24 bytes, or when the message is refused")
    func notKept() {
        #expect(timeText(#"{"type":"ping","t":7.5}"#) == nil)
        #expect(timeText(#"{"type":"wheel","x":1,"y":1,"dx":0,"dy":1,"t":1}"#) == nil)
        let long = "1." + String(repeating: "0", count: 23)  // 25 bytes
        #expect(timeText(#"{"type":"pointer","phase":"down","id":1,"x":1,"y":2,"t":"# + long + "}") == nil)
        let longest = "1." + String(repeating: "0", count: 22)  // 24 bytes
        #expect(timeText(#"{"type":"pointer","phase":"down","id":1,"x":1,"y":2,"t":"# + longest + "}")?.count == 24)
        #expect(timeText(#"{"type":"pointer","phase":"down","id":1,"x":1,"y":2,"t":-1}"#) == nil, "refused: t < 0")
    }

    @Test("applied writes the kept text as it came, and formats t only without one; the follow field after it")
    func echoed() throws {
        let text = try #require(NumberText("1.5E3"))
        #expect(ServerMessage.applied(t: 1500, text: text, followField: nil) == #"{"type":"applied","t":1.5E3}"#)
        #expect(ServerMessage.applied(t: 1500, text: nil, followField: nil) == #"{"type":"applied","t":1500}"#)
        let ruler = LayerFollow(layer: 2, follow: PointerFollow(axis: .x, ratio: 1, range: -600...400))
        #expect(
            ServerMessage.applied(
                t: 7.5, text: NumberText("7.50"), followField: ServerMessage.appliedFollowField(ruler))
                == #"{"type":"applied","t":7.50,"follow":{"layer":2,"axis":"x","ratio":1,"min":-600,"max":400}}"#)
        // What a page reads back is the number it sent.
        guard
            case .object(let fields) = try JSONParser.parse(
                ServerMessage.applied(t: 1500, text: text, followField: nil))
        else {
            Issue.record("not an object")
            return
        }
        #expect(fields.first { $0.0 == "t" }?.1 == .number(1500))
    }

    @Test("NumberText is made only of one JSON number of at most 24 bytes")
    func made() {
        #expect(NumberText(" 12.5 ")?.description == "12.5")
        #expect(NumberText("-2.2250738585072014e-308")?.count == 24)
        #expect(NumberText("12.5x") == nil)
        #expect(NumberText("\"12\"") == nil)
        #expect(NumberText("1" + String(repeating: "0", count: 24)) == nil)
        #expect(NumberText("12.5") != NumberText("12.50"), "the text, not the number")
    }
}
