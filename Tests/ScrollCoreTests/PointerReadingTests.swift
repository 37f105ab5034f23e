import Testing

@testable import ScrollCore

/// A pointer message read straight into its fields (`ClientMessage.readPointer`): the message the
/// whole reader (a JSON tree, then `JSONFields`) reads, or nothing, leaving the text to it.
struct PointerReadingTests {
    /// What `parse` reads of `text`, and what the whole reader reads.
    func both(_ text: String) -> (
        parsed: Result<ClientMessage, ProtocolError>, whole: Result<ClientMessage, ProtocolError>
    ) {
        (ClientMessage.parse(text), ClientMessage.parseWhole(text))
    }

    @Test(
        "the page's and our tools' pointer messages are read without a tree, as the whole reader reads them",
        arguments: [
            // The page's (Public/js/input.js): its pointerType and buttons, a move's coalesced samples.
            #"{"type":"pointer","phase":"down","id":1,"pointerType":"mouse","buttons":1,"x":300,"y":214,"t":1000.5}"#,
            #"{"type":"pointer","phase":"move","id":1,"pointerType":"touch","buttons":1,"x":288,"y":214,"t":1010,"coalesced":[[294,214,1005],[288,214,1010]]}"#,
            #"{"type":"pointer","phase":"up","id":1,"pointerType":"pen","buttons":0,"x":288,"y":214,"t":1020}"#,
            // widget-load's and WireClient's (`ClientMessage.encoded()`), fields in another order.
            ClientMessage.pointer(.init(phase: .move, id: 7, x: 150.25, y: 90, t: 4321.125)).encoded(),
            ClientMessage.pointer(.init(phase: .cancel, id: -3, x: -1e6, y: 1e6, t: 0, pointerType: "")).encoded(),
            #"{"t":5,"y":2,"x":1,"id":2,"phase":"move","type":"pointer"}"#,
            // White space anywhere JSON allows it; a name given twice counts the first time.
            " {\t\"type\" : \"pointer\" ,\n\"phase\":\"move\",\"id\":1,\"x\":1,\"y\":2,\"t\":3,\"coalesced\":[ [1,2,3] ]}\r\n",
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":2,"t":3,"x":"two","t":null}"#,
            // Other fields, of any JSON, are ignored.
            #"{"type":"pointer","phase":"up","id":1,"x":1,"y":2,"t":3,"extra":{"a":[1,{"b":null}],"c":"\u00e9"}}"#,
            // Nested as deep as JSONParser allows (the message itself the first level), in a field not read.
            #"{"type":"pointer","phase":"down","id":1,"x":1,"y":1,"t":1,"extra":"#
                + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}",
            // Escapes in a name or a value read as the whole reader reads them.
            #"{"type":"p\u006finter","phase":"move","\u0069d":1,"x":1,"y":2,"t":3}"#,
        ])
    func readWithoutATree(text: String) throws {
        let read = try #require(ClientMessage.readPointer(text), "left to the whole reader: \(text)")
        #expect(Result.success(read) == ClientMessage.parseWhole(text))
        #expect(ClientMessage.parse(text) == ClientMessage.parseWhole(text))
    }

    @Test("a move's coalesced samples replace its own; a down ignores them")
    func coalescedSamples() throws {
        let move = ClientMessage.readPointer(
            #"{"type":"pointer","phase":"move","id":1,"x":9,"y":9,"t":9,"coalesced":[[1,2,3],[4,5,6]]}"#)
        #expect(
            move == .pointer(.init(phase: .move, id: 1, samples: [.init(x: 1, y: 2, t: 3), .init(x: 4, y: 5, t: 6)])))
        let down = ClientMessage.readPointer(
            #"{"type":"pointer","phase":"down","id":1,"x":9,"y":9,"t":9,"coalesced":[[1,2,3]]}"#)
        #expect(down == .pointer(.init(phase: .down, id: 1, x: 9, y: 9, t: 9)))
    }

    @Test(
        "anything else is left to the whole reader, which reads it or words its refusal",
        arguments: [
            // Other types, and texts that are not one object.
            #"{"type":"ping","t":1}"#, #"{"type":"wheel","x":1,"y":1,"dx":0,"dy":1,"t":1}"#, "[1]", "{}", "",
            #"{"phase":"move","id":1,"x":1,"y":2,"t":3}"#,
            // Not JSON: a trailing comma, text after the object, a bad number.
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":2,"t":3,}"#,
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":2,"t":3} x"#,
            #"{"type":"pointer","phase":"move","id":1,"x":01,"y":2,"t":3}"#,
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":2,"t":3,"extra":[1,]}"#,
            // A field of the wrong type, out of range, null or missing.
            #"{"type":"pointer","phase":"down","id":1,"x":"a","y":1,"t":1}"#,
            #"{"type":"pointer","phase":"down","id":1.5,"x":1,"y":1,"t":1}"#,
            #"{"type":"pointer","phase":"hover","id":1,"x":1,"y":1,"t":1}"#,
            #"{"type":"pointer","phase":"down","id":1,"x":1e7,"y":1,"t":1}"#,
            #"{"type":"pointer","phase":"down","id":1,"x":1,"y":1,"t":-5}"#,
            #"{"type":"pointer","phase":"down","id":1,"x":null,"y":1,"t":1}"#,
            #"{"type":"pointer","phase":"down","id":1,"y":1,"t":1}"#,
            #"{"type":"pointer","phase":"down","id":1,"x":1,"y":1,"t":1,"pointerType":7}"#,
            // A move's coalesced other than 1–128 [x, y, t] numbers within their rules.
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":1,"t":1,"coalesced":[]}"#,
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":1,"t":1,"coalesced":[[1,2]]}"#,
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":1,"t":1,"coalesced":[[1,2,3,4]]}"#,
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":1,"t":1,"coalesced":[[1,2,-1]]}"#,
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":1,"t":1,"coalesced":"no"}"#,
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":1,"t":1,"coalesced":["#
                + Array(repeating: "[1,2,3]", count: 129).joined(separator: ",") + "]}",
            // A first null hides a later value; a first type other than pointer counts.
            #"{"type":"pointer","phase":"down","id":1,"x":null,"x":1,"y":1,"t":1}"#,
            #"{"type":"ping","type":"pointer","phase":"down","id":1,"x":1,"y":1,"t":1}"#,
            // Nested past JSONParser.maxDepth inside a field that is not read.
            #"{"type":"pointer","phase":"down","id":1,"x":1,"y":1,"t":1,"extra":"#
                + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}",
            // Which the whole reader takes: an up's coalesced is not read, whatever it is.
            #"{"type":"pointer","phase":"up","id":1,"x":1,"y":1,"t":1,"coalesced":[]}"#,
        ])
    func leftToTheWholeReader(text: String) {
        #expect(ClientMessage.readPointer(text) == nil, "read without a tree: \(text)")
        let (parsed, whole) = both(text)
        #expect(parsed == whole)
    }

    @Test(
        "10,000 edits of pointer messages (bytes dropped, doubled, changed; tokens put in): parse reads each as the whole reader does"
    )
    func editedMessages() {
        let dice = Dice(seed: 22)
        let pick = { (n: Int) in dice.next(in: 0...(n - 1)) }
        let seeds = [
            #"{"type":"pointer","phase":"move","id":1,"pointerType":"mouse","buttons":1,"x":250.5,"y":90,"t":1234.567,"coalesced":[[249,90,1230.1],[250.5,90,1234.567]]}"#,
            #"{"type":"pointer","phase":"down","id":-2,"x":0,"y":-0.5,"t":0}"#,
        ].map { Array($0.utf8) }
        let tokens = ["null", "\"x\"", "1e400", "-0", "[", "]", "{", "}", ",", ":", "\"t\":", "\\u0041", "128", " "].map
        {
            Array($0.utf8)
        }
        var read = 0, refused = 0
        for _ in 0..<10_000 {
            var bytes = seeds[pick(seeds.count)]
            for _ in 0...pick(3) {
                let at = pick(bytes.count)
                switch pick(4) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(bytes[at], at: at)
                case 2: bytes[at] = UInt8(pick(128))
                default: bytes.insert(contentsOf: tokens[pick(tokens.count)], at: at)
                }
                if bytes.isEmpty { bytes = seeds[0] }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let (parsed, wholly) = both(text)
            #expect(parsed == wholly, "\(text)")
            if ClientMessage.readPointer(text) != nil { read += 1 } else if case .failure = wholly { refused += 1 }
        }
        // Both outcomes are tried: messages read without a tree, and refusals.
        #expect(read > 500 && refused > 5_000, "\(read) read without a tree, \(refused) refused")
    }
}
