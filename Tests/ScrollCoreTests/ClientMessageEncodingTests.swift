import Testing

@testable import ScrollCore

/// docs/PROTOCOL.md, "Client → server": what the tools and tests send is written by
/// `ClientMessage.encoded()` — the table's field names, `type` first, defaults left out — and
/// reads back as the same message.
@Suite struct ClientMessageEncodingTests {
    // Made for each use, not kept in a global until exit: LeakSanitizer cannot follow the pointer
    // to a `JSONValue.number`'s box, which Swift keeps with the case's tag in its high bits.
    static var documented: [(ClientMessage, String)] {
        [
            (.hello(.init(version: 4)), #"{"type":"hello","protocol":4}"#),
            (
                .hello(.init(version: 4, room: "dial", theme: "dark", reducedMotion: true, scene: "picker")),
                #"{"type":"hello","protocol":4,"room":"dial","theme":"dark","reducedMotion":true,"scene":"picker"}"#
            ),
            (
                .pointer(.init(phase: .down, id: 1, x: 300, y: 214.5, t: 1000)),
                #"{"type":"pointer","phase":"down","id":1,"x":300,"y":214.5,"t":1000}"#
            ),
            (
                .pointer(
                    .init(
                        phase: .move, id: 3, pointerType: "pen",
                        samples: [.init(x: 1, y: 2, t: 10), .init(x: 3, y: 4, t: 20), .init(x: 5, y: 6, t: 30.25)])),
                #"{"type":"pointer","phase":"move","id":3,"x":5,"y":6,"t":30.25,"pointerType":"pen","coalesced":[[1,2,10],[3,4,20],[5,6,30.25]]}"#
            ),
            (
                .pointer(.init(phase: .cancel, id: -7, x: -1.5, y: 0, t: 0, pointerType: "touch")),
                #"{"type":"pointer","phase":"cancel","id":-7,"x":-1.5,"y":0,"t":0,"pointerType":"touch"}"#
            ),
            (
                .wheel(.init(x: 195, y: 214, dx: 0, dy: -3.5, t: 50)),
                #"{"type":"wheel","x":195,"y":214,"dx":0,"dy":-3.5,"t":50}"#
            ),
            (
                .wheel(.init(x: 195, y: 214, dx: 1, dy: 0, deltaMode: 2, t: 51)),
                #"{"type":"wheel","x":195,"y":214,"dx":1,"dy":0,"deltaMode":2,"t":51}"#
            ),
            (.key(key: "PageUp", widget: nil, t: 7), #"{"type":"key","key":"PageUp","t":7}"#),
            (
                .key(key: "\"\\", widget: "picker", t: 8),
                #"{"type":"key","key":"\"\\","widget":"picker","t":8}"#
            ),
            (
                .action(.init(widget: "ruler", action: "setValue", args: ["value": 80.3], t: 40)),
                #"{"type":"action","widget":"ruler","action":"setValue","args":{"value":80.3},"t":40}"#
            ),
            (
                .action(.init(widget: "roller", action: "changeTo", args: ["n": 42, "animated": false], t: 41)),
                #"{"type":"action","widget":"roller","action":"changeTo","args":{"animated":false,"n":42},"t":41}"#
            ),
            (.action(.init(widget: nil, action: "press", t: 1)), #"{"type":"action","action":"press","t":1}"#),
            (.hover(at: Point(x: 120, y: 214), t: 1000), #"{"type":"hover","x":120,"y":214,"t":1000}"#),
            (.hover(at: nil, t: 1100), #"{"type":"hover","out":true,"t":1100}"#),
            (.preferences(theme: nil, reducedMotion: nil), #"{"type":"preferences"}"#),
            (.preferences(theme: "dark", reducedMotion: nil), #"{"type":"preferences","theme":"dark"}"#),
            (
                .preferences(theme: "light", reducedMotion: false),
                #"{"type":"preferences","theme":"light","reducedMotion":false}"#
            ),
            (.ping(t: 42.5), #"{"type":"ping","t":42.5}"#),
        ]
    }

    @Test("each kind is written with the documented fields", arguments: documented)
    func documentedText(message: ClientMessage, text: String) {
        #expect(message.encoded() == text)
    }

    @Test("what is written parses back as the same message", arguments: documented.map(\.0))
    func roundTrip(message: ClientMessage) throws {
        #expect(try ClientMessage.parse(message.encoded()).get() == message)
    }

    @Test(
        "a message the page wrote (defaults spelt out, unknown fields, any order) is written back as the same message",
        arguments: [
            #"{"protocol":4,"type":"hello","room":"lobby","theme":"light","reducedMotion":false}"#,
            #"{"type":"pointer","phase":"move","id":2,"x":0,"y":0,"t":0,"pointerType":"mouse","buttons":1,"coalesced":[[7,8,9]]}"#,
            #"{"type":"wheel","x":1,"y":2,"dx":3,"dy":4,"deltaMode":0,"t":5,"ctrlKey":true}"#,
            #"{"type":"action","widget":"carousel","action":"add","args":{},"t":3}"#,
            #"{"type":"hover","out":false,"x":1,"y":2,"t":3}"#,
            #"{"type":"hover","out":true,"x":1,"y":2,"t":3}"#,
            #"{"type":"key","key":"Enter","widget":null,"t":1e2}"#,
        ])
    func pageTextRoundTrip(text: String) throws {
        let message = try ClientMessage.parse(text).get()
        #expect(try ClientMessage.parse(message.encoded()).get() == message)
    }

    @Test("defaults are left out: the shortest text that means the message")
    func defaultsLeftOut() throws {
        let spelt = try ClientMessage.parse(
            #"{"type":"pointer","phase":"move","id":2,"x":0,"y":0,"t":0,"pointerType":"mouse","coalesced":[[7,8,9]]}"#
        ).get()
        #expect(spelt.encoded() == #"{"type":"pointer","phase":"move","id":2,"x":7,"y":8,"t":9}"#)
        let hello = try ClientMessage.parse(#"{"type":"hello","protocol":4,"room":"lobby","theme":"light"}"#).get()
        #expect(hello.encoded() == #"{"type":"hello","protocol":4}"#)
    }
}
