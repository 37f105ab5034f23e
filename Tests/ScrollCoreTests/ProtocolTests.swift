import Testing

@testable import ScrollCore

@Suite struct ClientMessageTests {
    @Test func helloDefaults() throws {
        let m = try ClientMessage.parse(#"{"type":"hello","protocol":1}"#).get()
        #expect(m == .hello(.init(version: 1, room: "lobby", theme: "light", reducedMotion: false)))
    }

    @Test func pointerWithCoalescedSamples() throws {
        let m = try ClientMessage.parse(
            #"{"type":"pointer","phase":"move","id":3,"x":5,"y":6,"t":30,"coalesced":[[1,2,10],[3,4,20],[5,6,30]]}"#
        ).get()
        guard case .pointer(let p) = m else { Issue.record("not a pointer"); return }
        #expect(p.phase == .move && p.id == 3)
        #expect(p.samples.map(\.t) == [10, 20, 30])
        #expect(p.samples.map(\.x) == [1, 3, 5])
    }

    @Test(
        "refusals carry a stable code and name the field",
        arguments: [
            ("not json", "bad_json", "JSON"),
            ("[1,2]", "bad_message", "object"),
            (#"{"type":"dance"}"#, "unknown_type", "dance"),
            (#"{"type":"pointer","phase":"down","id":1,"x":"a","y":1,"t":1}"#, "bad_message", "pointer.x"),
            (#"{"type":"pointer","phase":"down","id":1,"x":1,"y":1,"t":-5}"#, "bad_message", "pointer.t"),
            (#"{"type":"pointer","phase":"hover","id":1,"x":1,"y":1,"t":1}"#, "bad_message", "pointer.phase"),
            (#"{"type":"pointer","phase":"down","id":1.5,"x":1,"y":1,"t":1}"#, "bad_message", "pointer.id"),
            (#"{"type":"pointer","phase":"down","id":1,"x":true,"y":1,"t":1}"#, "bad_message", "pointer.x"),
            (
                #"{"type":"pointer","phase":"move","id":1,"x":1,"y":1,"t":1,"coalesced":[[1,2]]}"#, "bad_message",
                "coalesced[0]"
            ),
            (#"{"type":"pointer","phase":"down","id":1,"x":1e300,"y":1,"t":1}"#, "bad_message", "pointer.x"),
            (#"{"type":"hello","protocol":1,"room":"a b"}"#, "bad_message", "hello.room"),
            (#"{"type":"hello","protocol":1,"theme":"pink"}"#, "bad_message", "hello.theme"),
            (#"{"type":"wheel","x":1,"y":1,"dx":1,"dy":1,"deltaMode":7,"t":1}"#, "bad_message", "wheel.deltaMode"),
            (#"{"type":"key","key":"","widget":"ruler","t":1}"#, "bad_message", "key.key"),
        ])
    func refusals(text: String, code: String, mentions: String) {
        switch ClientMessage.parse(text) {
        case .success(let m): Issue.record("accepted \(m)")
        case .failure(let e):
            #expect(e.code.rawValue == code)
            #expect(e.message.contains(mentions), "\(e.message)")
        }
    }

    @Test func oversizedMessageIsRefused() {
        let big =
            #"{"type":"ping","t":1,"pad":""# + String(repeating: "x", count: ClientMessageLimits.maxBytes) + #""}"#
        guard case .failure(let e) = ClientMessage.parse(big) else { Issue.record("accepted"); return }
        #expect(e.code == .tooLarge)
    }
}

@Suite struct FrameCodecTests {
    func layer(_ id: UInt16, _ build: (inout DisplayList) -> Void) -> Layer {
        var l = DisplayList()
        build(&l)
        return Layer(id: id, list: l)
    }

    @Test func displayListRoundTrips() throws {
        var l = DisplayList()
        l.save(); l.translate(1, 2); l.clip(Rect(x: 0, y: 0, width: 10, height: 20))
        l.setFill(Color(1, 2, 3, 4)); l.setStroke(Color(5, 6, 7), width: 2);
        l.fillRect(Rect(x: 1, y: 2, width: 3, height: 4))
        l.line(0, 1, 2, 3); l.text("72.5 kg ✓", x: 5, y: 6, size: 17, align: .center, baseline: .top, weight: .bold)
        l.fillRoundRect(Rect(x: 0, y: 0, width: 4, height: 4), radius: 1);
        l.fillCircle(center: Point(x: 1, y: 1), radius: 2)
        l.fillPolygon([Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1)]); l.scale(2, 2); l.setAlpha(0.5);
        l.restore()
        let ops = try DisplayListDecoder.decode(l.bytes)
        #expect(ops.count == 14)
        #expect(ops[7] == .text("72.5 kg ✓", x: 5, y: 6, size: 17, align: .center, baseline: .top, weight: .bold))
        #expect(ops[3] == .setFill(Color(1, 2, 3, 4)))
        // Line: 1 op byte + 4 float32 = 17 bytes (the size budget counts on it).
        var one = DisplayList(); one.line(0, 0, 1, 1)
        #expect(one.bytes.count == 17)
    }

    @Test func truncatedListIsAnError() {
        var l = DisplayList(); l.fillRect(Rect(x: 1, y: 2, width: 3, height: 4))
        #expect(throws: DisplayListDecodingError.self) { try DisplayListDecoder.decode(Array(l.bytes.dropLast())) }
    }

    @Test("a delta frame carries only changed layers; a full frame carries all")
    func deltaFrames() throws {
        var enc = FrameEncoder()
        let a = layer(0) { $0.fillRect(Rect(x: 0, y: 0, width: 1, height: 1)) }
        let b1 = layer(1) { $0.line(0, 0, 1, 1) }
        let b2 = layer(1) { $0.line(0, 0, 2, 2) }
        let first = enc.encode([a, b1], time: 0.5)
        let second = enc.encode([a, b2], time: 0.6)
        #expect(second.seq == first.seq + 1)
        #expect(second.changedLayers == 1)
        let delta = try DecodedFrame(second.delta)
        #expect(delta.isDelta && delta.seq == 2 && delta.time == 0.6)
        #expect(delta.layers.map(\.id) == [0, 1])
        #expect(delta.layers[0].ops == nil)
        #expect(delta.layers[1].ops == b2.list.bytes)
        let full = try DecodedFrame(second.full)
        #expect(!full.isDelta && full.layers.allSatisfy { $0.ops != nil })
        let third = enc.encode([a, b2], time: 0.7)
        #expect(third.changedLayers == 0)
    }
}

@Suite struct JSONWriterTests {
    @Test func escapesAndNumbers() {
        let v: JSONValue = .object([
            ("s", "a\"b\\c\n\u{1}"), ("n", 72.5), ("i", 3), ("inf", .number(.infinity)), ("b", true),
        ])
        #expect(v.serialized == #"{"s":"a\"b\\c\n\u0001","n":72.5,"i":3,"inf":null,"b":true}"#)
        // Names and values with nothing to escape (non-ASCII and DEL included) go out as they are.
        let plain: JSONValue = .object([("välue ✓", "72.5 kg · 体重"), ("t\t", "\u{7F}")])
        #expect(plain.serialized == "{\"välue ✓\":\"72.5 kg · 体重\",\"t\\t\":\"\u{7F}\"}")
    }
}
