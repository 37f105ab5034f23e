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

    @Test("every number is the double its text names, bit for bit, as Double's own parser reads it")
    func numbersExactly() throws {
        var texts = [
            "0", "-0", "0.0", "-0.0", "5", "0.5", "250.5", "1234.5625", "0.1", "0.2", "0.3", "2543.1999999880791",
            "123456789012345", "1234567890123456", "9007199254740993", "0.000001234", "1e22", "1e23", "-1e-22",
            "1.5e-300", "1e400", "-1e400", "4.9e-324", "1e-400", "999999999999999.9", "0.1e1", "100e-2",
            "17976931348623157e292", "2.2250738585072014e-308", "314159265358979e-14",
            // An exponent past any cap, brought back by a fraction as long as it: 1e900008, infinite.
            "0." + String(repeating: "0", count: 99_990) + "1e999999", "1e1099511627776", "1e-1099511627776",
            "0." + String(repeating: "0", count: 30) + "1e1099511627790",
        ]
        // Page-shaped numbers (coordinates, timestamps) and random ones of every length and exponent.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let int = String(
                UInt64.random(in: 0...UInt64.max, using: &rng)
                    % [10, 1_000, 1_000_000, 1 << 53, .max][
                        Int.random(in: 0..<5, using: &rng)])
            let fraction =
                Int.random(in: 0..<4, using: &rng) == 0
                ? ""
                : "."
                    + String(UInt64.random(in: 0...(1 << 60), using: &rng)).prefix(Int.random(in: 1...18, using: &rng))
            let exponent = Int.random(in: 0..<3, using: &rng) == 0 ? "e\(Int.random(in: -40...40, using: &rng))" : ""
            texts.append((Bool.random(using: &rng) ? "-" : "") + int + fraction + exponent)
        }
        for text in texts {
            let expected = try #require(Double(text), "\(text)")
            guard case .number(let d) = try JSONParser.parse(text) else {
                Issue.record("\(text) is not a number")
                continue
            }
            #expect(d.bitPattern == expected.bitPattern, "\(text): \(d) where Double reads \(expected)")
        }
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
