import Testing

@testable import ScrollCore

/// The reader of client messages and trace lines (RFC 8259, strict; docs/PROTOCOL.md "Errors").
struct JSONParserTests {
    func parse(_ text: String) -> JSONValue? { try? JSONParser.parse(text) }

    @Test("values as RFC 8259 writes them, fields in the text's order")
    func values() throws {
        #expect(
            parse(#" {"b":[1,-2.5,3e2,0.125E-1,-0],"a":{"x":true,"y":false,"z":null},"s":"hi"} "#)
                == .object([
                    ("b", .array([1, -2.5, 300, 0.0125, .number(-0.0)])),
                    ("a", .object([("x", true), ("y", false), ("z", .null)])), ("s", "hi"),
                ]))
        #expect(parse("[]") == .array([]) && parse("{}") == .object([]) && parse("7") == 7)
    }

    @Test("escapes, surrogate pairs, and a lone surrogate as U+FFFD")
    func strings() {
        #expect(parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(parse(#""\u00e9\u20AC\ud83d\ude00""#) == .string("é€😀"))
        #expect(parse(#""x\ud800y""#) == .string("x\u{FFFD}y"))
        #expect(parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
        #expect(parse("\"naïve 日本\"") == .string("naïve 日本"))
    }

    @Test(
        "not JSON: trailing commas, leading zeros, bare dots, control characters, bad escapes, anything after the value",
        arguments: [
            #"{"x":1,}"#, "[1,]", #"{"x":01}"#, #"{"x":1.}"#, #"{"x":.5}"#, #"{"x":+1}"#, #"{"x":1e}"#, "\"a\u{1}b\"",
            #""\x""#, #""\u12""#, #"{"x":1} x"#, #"{"x":1}{"#, "", " ", "{", #"{"x"}"#, #"{"x":}"#, #"{x:1}"#, "tru",
            "nul", "[1 2]", #"{"a":1 "b":2}"#, "'a'", "NaN", "Infinity", #""open"#,
        ])
    func refused(text: String) {
        #expect(parse(text) == nil, "\(text) was accepted")
    }

    @Test("nesting deeper than 512 is refused; 512 is read")
    func depth() {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(parse(ok) != nil)
        #expect(parse(deep) == nil)
    }

    @Test("a number beyond a Double is infinite, which every numeric field refuses by name")
    func huge() {
        #expect(parse("1e400") == .number(.infinity))
        guard case .failure(let e) = ClientMessage.parse(#"{"type":"ping","t":1e400}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(e.code == .badMessage && e.message.hasPrefix("ping.t must be "))
    }

    @Test("a field given twice counts the first time, as before")
    func duplicates() throws {
        let m = try ClientMessage.parse(#"{"type":"ping","t":5,"t":9}"#).get()
        #expect(m == .ping(t: 5))
    }
}
