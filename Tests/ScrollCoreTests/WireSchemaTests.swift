import Foundation
import Testing

@testable import ScrollCore

/// docs/PROTOCOL.md, "Client → server" and "Limits": every refusal is `bad_message` and its
/// text starts with the field it names (`<type>.<field>`); booleans are not numbers.
@Suite struct WireSchemaTests {
    static let valid: [String: String] = [
        "hello": #""protocol":2"#,
        "pointer": #""phase":"down","id":1,"x":10,"y":20,"t":5"#,
        "wheel": #""x":1,"y":2,"dx":0,"dy":3,"t":5"#,
        "key": #""key":"ArrowLeft","widget":"ruler","t":5"#,
        "ping": #""t":5"#,
        "action": #""widget":"ruler","action":"setValue","args":{"value":80.3},"t":5"#,
        "hover": #""x":10,"y":20,"t":5"#,
        "preferences": #""theme":"dark","reducedMotion":true"#,
    ]

    /// `type`'s valid message with `field` replaced by `value` (or removed when nil).
    static func message(_ type: String, _ field: String, _ value: String?) -> String {
        var fields = valid[type]!.split(separator: ",").map(String.init).filter { !$0.hasPrefix("\"\(field)\":") }
        if let value { fields.append("\"\(field)\":\(value)") }
        return #"{"type":"\#(type)""# + fields.map { "," + $0 }.joined() + "}"
    }

    func refusal(_ text: String) -> ProtocolError? {
        if case .failure(let e) = ClientMessage.parse(text) { return e }
        return nil
    }

    @Test("each message as documented is accepted", arguments: valid.keys.sorted())
    func validMessages(type: String) throws {
        _ = try ClientMessage.parse(Self.message(type, "none", nil)).get()
    }

    @Test(
        "every required field, missing, is named",
        arguments: [
            ("hello", "protocol"), ("pointer", "phase"), ("pointer", "id"), ("pointer", "x"), ("pointer", "y"),
            ("pointer", "t"), ("wheel", "x"), ("wheel", "y"), ("wheel", "dx"), ("wheel", "dy"), ("wheel", "t"),
            ("key", "key"), ("key", "t"), ("ping", "t"), ("action", "action"), ("action", "t"), ("hover", "x"),
            ("hover", "y"), ("hover", "t"),
        ])
    func missing(type: String, field: String) throws {
        let e = try #require(refusal(Self.message(type, field, nil)))
        #expect(e.code == .badMessage)
        #expect(e.message == "\(type).\(field) is required")
    }

    @Test(
        "every numeric field refuses a boolean, a string and an out-of-range number, naming the field",
        arguments: [
            ("hello", "protocol", "-1"), ("pointer", "id", "1.5"), ("pointer", "x", "1e7"),
            ("pointer", "y", "-1000001"),
            ("pointer", "t", "-0.5"), ("wheel", "x", "2e6"), ("wheel", "y", "1e300"), ("wheel", "dx", "100001"),
            ("wheel", "dy", "-100001"), ("wheel", "deltaMode", "3"), ("wheel", "t", "-1"), ("key", "t", "-1"),
            ("ping", "t", "-3"), ("action", "t", "-1"), ("hover", "x", "1e7"), ("hover", "t", "-1"),
        ])
    func numbers(type: String, field: String, outOfRange: String) throws {
        for value in ["true", "false", #""5""#, outOfRange, "[1]", "{}"] {
            let e = try #require(refusal(Self.message(type, field, value)), "\(type).\(field) = \(value) was accepted")
            #expect(e.code == .badMessage)
            #expect(e.message.hasPrefix("\(type).\(field) must be "), "\(e.message)")
        }
    }

    @Test("limits as documented: coordinates ±1000000, wheel deltas ±100000, t ≥ 0, deltaMode 0…2, id int32")
    func limits() throws {
        #expect(refusal(Self.message("pointer", "x", "1000000")) == nil)
        #expect(refusal(Self.message("pointer", "x", "-1000000")) == nil)
        #expect(
            refusal(Self.message("pointer", "x", "1000000.5"))?.message
                == "pointer.x must be a finite number within ±1000000")
        #expect(refusal(Self.message("wheel", "dy", "-100000")) == nil)
        #expect(
            refusal(Self.message("wheel", "dy", "100000.1"))?.message
                == "wheel.dy must be a finite number within ±100000")
        #expect(refusal(Self.message("ping", "t", "0")) == nil)
        #expect(
            refusal(Self.message("ping", "t", "-0.001"))?.message
                == "ping.t must be a finite number of milliseconds ≥ 0")
        #expect(refusal(Self.message("wheel", "deltaMode", "2")) == nil)
        #expect(
            refusal(Self.message("wheel", "deltaMode", "2.5"))?.message == "wheel.deltaMode must be an integer in 0…2")
        #expect(refusal(Self.message("pointer", "id", "2147483647")) == nil)
        #expect(
            refusal(Self.message("pointer", "id", "2147483648"))?.message
                == "pointer.id must be an integer in -2147483648…2147483647")
        // A number beyond a Double is out of range, not bad JSON.
        #expect(
            refusal(Self.message("pointer", "y", "1e400"))?.message
                == "pointer.y must be a finite number within ±1000000")
    }

    @Test("strings: type, length and choices are named with what was given")
    func strings() throws {
        #expect(
            refusal(Self.message("key", "key", #""""#))?.message
                == #"key.key must be a string of 1–32 characters and at most 128 bytes in UTF-8, not """#)
        #expect(
            refusal(Self.message("key", "key", String(repeating: "k", count: 33).debugDescription))?.code == .badMessage
        )
        #expect(
            refusal(Self.message("key", "key", "7"))?.message
                == "key.key must be a string of 1–32 characters and at most 128 bytes in UTF-8")
        // A key of one character (a letter and 8,000 combining marks) is 16,001 bytes: refused, and
        // the refusal quotes at most 40 characters and 160 bytes of it.
        let heavy = "e" + String(repeating: "\u{301}", count: 8000)
        let keyRefusal = try #require(refusal(Self.message("key", "key", "\"\(heavy)\"")))
        #expect(
            keyRefusal.message.hasPrefix(
                "key.key must be a string of 1–32 characters and at most 128 bytes in UTF-8, not \""))
        #expect(keyRefusal.message.utf8.count <= 100 + 160, "\(keyRefusal.message.utf8.count) B")
        let typeRefusal = try #require(refusal(#"{"type":"\#(heavy)"}"#))
        #expect(typeRefusal.code == .unknownType && typeRefusal.message.utf8.count <= 30 + 160)
        // pointerType: 0–32 characters ("" when the browser cannot tell), at most 128 bytes.
        #expect(refusal(Self.message("pointer", "pointerType", #""""#)) == nil)
        #expect(
            refusal(Self.message("pointer", "pointerType", "\"\(heavy)\""))?.message.hasPrefix(
                "pointer.pointerType must be a string of 0–32 characters and at most 128 bytes in UTF-8") == true)
        #expect(
            refusal(Self.message("pointer", "phase", #""hover""#))?.message
                == #"pointer.phase must be one of down, move, up, cancel, not "hover""#)
        #expect(
            refusal(Self.message("hello", "theme", #""pink""#))?.message
                == #"hello.theme must be one of light, dark, not "pink""#)
        #expect(
            refusal(Self.message("hello", "room", #""a b""#))?.message
                == #"hello.room must be 1–64 characters of A–Z, a–z, 0–9, _ or -, not "a b""#)
        #expect(
            refusal(Self.message("hello", "reducedMotion", "1"))?.message == "hello.reducedMotion must be true or false"
        )
        #expect(refusal(#"{"type":7}"#)?.message == "message.type must be a string")
        #expect(refusal(#"{"t":1}"#)?.message == "message.type is required")
    }

    @Test("coalesced samples: 1–128 of [x, y, t] within the limits; the bad one is named by index")
    func coalesced() throws {
        func move(_ coalesced: String) -> String {
            Self.message("pointer", "phase", #""move","coalesced":\#(coalesced)"#)
        }
        #expect(refusal(move("[[1,2,3],[4,5,6]]")) == nil)
        #expect(refusal(move("[]"))?.message == "pointer.coalesced must be a list of 1–128 [x, y, t] samples")
        let many = "[" + Array(repeating: "[1,2,3]", count: 129).joined(separator: ",") + "]"
        #expect(refusal(move(many))?.message.hasPrefix("pointer.coalesced must be") == true)
        #expect(refusal(move("[[1,2,3],[1,2]]"))?.message.hasPrefix("pointer.coalesced[1] must be [x, y, t]") == true)
        #expect(refusal(move("[[1,2,3],[1,2,3],[1,2e6,3]]"))?.message.hasPrefix("pointer.coalesced[2] must be") == true)
        #expect(refusal(move("[[1,2,-3]]"))?.message.hasPrefix("pointer.coalesced[0] must be") == true)
        #expect(refusal(move("[[1,true,3]]"))?.message.hasPrefix("pointer.coalesced must be") == true)
    }

    @Test("unknown fields are ignored; null counts as absent")
    func unknownFields() throws {
        let m = try ClientMessage.parse(#"{"type":"ping","t":4,"extra":{"deep":[1,true,null]},"pad":"x"}"#).get()
        #expect(m == .ping(t: 4))
        let hello = try ClientMessage.parse(#"{"type":"hello","protocol":2,"room":null,"theme":null}"#).get()
        #expect(hello == .hello(.init(version: 2, room: "lobby", theme: "light", reducedMotion: false)))
    }

    @Test("the trace format refuses what the wire refuses, with the same words")
    func traceSharesTheRules() throws {
        func traceError(_ line: String) -> String? {
            do { _ = try TraceParser.parse(line, name: "t"); return nil } catch { return error.message }
        }
        // Booleans are not numbers in a trace either.
        for field in ["t", "at", "x", "y", "pointer"] {
            var fields = ["\"type\":\"down\""] + ["t", "x", "y"].filter { $0 != field }.map { "\"\($0)\":1" }
            fields.append("\"\(field)\":true")
            let line = "{" + fields.joined(separator: ",") + "}"
            #expect(traceError(line)?.hasPrefix("\"\(field)\" must be ") == true, "\(field)")
        }
        for field in ["dx", "dy", "deltaMode"] {
            #expect(
                traceError(#"{"t":1,"type":"wheel","x":1,"y":1,"# + "\"\(field)\":false}")?.hasPrefix(
                    "\"\(field)\" must be ") == true)
        }
        let wire = try #require(refusal(Self.message("pointer", "x", "2e6"))).message
        let trace = try #require(traceError(#"{"t":1,"type":"down","x":2e6,"y":1}"#))
        #expect(wire.replacingOccurrences(of: "pointer.x", with: "\"x\"") == trace)
    }
}

/// docs/PROTOCOL.md: `hello.scene` and the `action` message.
@Suite struct WireActionSchemaTests {
    func refusal(_ text: String) -> ProtocolError? {
        if case .failure(let e) = ClientMessage.parse(text) { return e }
        return nil
    }

    @Test("hello.scene: optional, 1–64 of A–Z a–z 0–9 _ -; absent means the default scene")
    func helloScene() throws {
        guard case .hello(let plain) = try ClientMessage.parse(#"{"type":"hello","protocol":2}"#).get() else { return }
        #expect(plain.scene == nil)
        guard
            case .hello(let named) = try ClientMessage.parse(#"{"type":"hello","protocol":2,"scene":"tick_picker-2"}"#)
                .get()
        else { Issue.record("not a hello"); return }
        #expect(named.scene == "tick_picker-2")
        let long = String(repeating: "s", count: 65)
        for bad in [#""""#, #""a b""#, #""ruler/1""#, "\"\(long)\"", "7", "true", #"["demo"]"#] {
            let e = refusal(#"{"type":"hello","protocol":2,"scene":\#(bad)}"#)
            #expect(e?.code == .badMessage, "\(bad)")
            #expect(
                e?.message.hasPrefix("hello.scene must be 1–64 characters of A–Z, a–z, 0–9, _ or -") == true,
                "\(e?.message ?? "accepted")")
        }
        #expect(refusal(#"{"type":"hello","protocol":2,"scene":"\#(String(repeating: "s", count: 64))"}"#) == nil)
    }

    @Test("action: widget, action, args and t as documented; widget and args optional")
    func happyPath() throws {
        let m = try ClientMessage.parse(
            #"{"type":"action","widget":"ruler","action":"setValue","args":{"value":80.3,"note":["a",{"b":null}]},"t":12.5,"extra":1}"#
        ).get()
        #expect(
            m
                == .action(
                    .init(
                        widget: "ruler", action: "setValue",
                        args: ["value": 80.3, "note": .array(["a", .object([("b", .null)])])], t: 12.5)))
        let bare = try ClientMessage.parse(#"{"type":"action","action":"setValue","t":0}"#).get()
        #expect(bare == .action(.init(widget: nil, action: "setValue", args: [:], t: 0)))
        // Booleans stay booleans inside args: the widget's own rule refuses them as numbers.
        let flag = try ClientMessage.parse(#"{"type":"action","action":"x","args":{"v":true,"n":1},"t":0}"#).get()
        #expect(flag == .action(.init(widget: nil, action: "x", args: ["v": true, "n": 1], t: 0)))
    }

    @Test(
        "each malformed action is refused as bad_message naming the field",
        arguments: [
            (#"{"type":"action","widget":"ruler","t":1}"#, "action.action is required"),
            (#"{"type":"action","action":7,"t":1}"#, "action.action must be a string of 1–64 characters"),
            (
                #"{"type":"action","action":"","t":1}"#,
                #"action.action must be a string of 1–64 characters and at most 256 bytes in UTF-8, not """#
            ),
            (
                #"{"type":"action","widget":"","action":"a","t":1}"#,
                #"action.widget must be a string of 1–64 characters and at most 256 bytes in UTF-8, not """#
            ),
            (
                #"{"type":"action","widget":false,"action":"a","t":1}"#,
                "action.widget must be a string of 1–64 characters"
            ),
            (#"{"type":"action","action":"a","t":true}"#, "action.t must be a finite number of milliseconds ≥ 0"),
            (#"{"type":"action","action":"a"}"#, "action.t is required"),
            (#"{"type":"action","action":"a","args":[1],"t":1}"#, "action.args must be an object"),
            (#"{"type":"action","action":"a","args":"value=1","t":1}"#, "action.args must be an object"),
            (#"{"type":"action","action":"a","args":{"":1},"t":1}"#, "action.args must be an object"),
            (#"{"type":"action","action":"a","args":{"v":[[[[1]]]]},"t":1}"#, "action.args must be an object"),
        ])
    func malformed(text: String, message: String) throws {
        let e = try #require(refusal(text))
        #expect(e.code == .badMessage)
        #expect(e.message.hasPrefix(message), "\(e.message)")
    }

    @Test("args are bounded: at most 16 arguments, nested at most 4 deep (counting args itself)")
    func argsBounds() {
        func action(_ args: String) -> String { #"{"type":"action","action":"a","args":\#(args),"t":1}"# }
        let sixteen = "{" + (1...16).map { "\"a\($0)\":\($0)" }.joined(separator: ",") + "}"
        let seventeen = "{" + (1...17).map { "\"a\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(refusal(action(sixteen)) == nil)
        #expect(
            refusal(action(seventeen))?.message.hasPrefix("action.args must be an object of at most 16 arguments")
                == true)
        #expect(refusal(action(#"{"v":[[[1]]]}"#)) == nil)
        #expect(refusal(action(#"{"v":{"w":{"x":[1]}}}"#)) == nil)
        #expect(refusal(action(#"{"v":{"w":{"x":[[1]]}}}"#))?.code == .badMessage)
    }

    @Test("strings in args are at most 256 bytes at any depth; a carousel name of one 16 KB character is refused")
    func argsBytes() {
        func action(_ args: String) -> String { #"{"type":"action","action":"a","args":\#(args),"t":1}"# }
        let expectation =
            "action.args must be an object of at most 16 arguments, named by 1–64 characters and at most 256 bytes "
            + "in UTF-8, nested at most 4 deep, with no string in it over 256 bytes in UTF-8"
        // One character, 16,001 bytes: under the message's 16 KiB, so the rule is what refuses it.
        let heavy = "e" + String(repeating: "\u{301}", count: 8000)
        let text = #"{"type":"action","widget":"carousel","action":"add","args":{"name":"\#(heavy)"},"t":1}"#
        #expect(text.utf8.count < ClientMessageLimits.maxBytes)
        #expect(refusal(text)?.message == expectation)
        let bytes256 = String(repeating: "é", count: 128), bytes257 = bytes256 + "x"
        #expect(refusal(action(#"{"v":"\#(bytes256)"}"#)) == nil)
        #expect(refusal(action(#"{"v":"\#(bytes257)"}"#))?.message == expectation)
        #expect(refusal(action(#"{"v":[{"w":"\#(bytes257)"}]}"#))?.message == expectation, "nested values")
        #expect(refusal(action(#"{"v":{"\#(bytes257)":1}}"#))?.message == expectation, "nested names")
        // An argument's name: 64 characters, 256 bytes; one more byte is refused.
        #expect(refusal(action(#"{"\#(String(repeating: "😀", count: 64))":1}"#)) == nil)
        #expect(refusal(action(#"{"e\#(String(repeating: "\u{301}", count: 128))":1}"#))?.message == expectation)
    }

    @Test("an action message maps to the scene's action input")
    func mapping() throws {
        let m = try ClientMessage.parse(
            #"{"type":"action","widget":"ruler","action":"setValue","args":{"value":80.3},"t":5}"#
        ).get()
        #expect(
            InputMapping.sceneInputs(m, client: "a")
                == [.action(ActionInput(widget: "ruler", name: "setValue", args: ["value": 80.3]))])
    }

    @Test("hover: x and y, or out: true without them; preferences: theme and reducedMotion, each optional")
    func hoverAndPreferences() throws {
        #expect(
            try ClientMessage.parse(#"{"type":"hover","x":1,"y":2,"t":3}"#).get() == .hover(at: Point(x: 1, y: 2), t: 3)
        )
        #expect(try ClientMessage.parse(#"{"type":"hover","out":true,"t":3}"#).get() == .hover(at: nil, t: 3))
        #expect(refusal(#"{"type":"hover","out":false,"t":3}"#)?.message == "hover.x is required")
        #expect(
            refusal(#"{"type":"hover","out":1,"x":1,"y":2,"t":3}"#)?.message.hasPrefix("hover.out must be ") == true)
        #expect(
            try ClientMessage.parse(#"{"type":"preferences","reducedMotion":false}"#).get()
                == .preferences(theme: nil, reducedMotion: false))
        #expect(
            try ClientMessage.parse(#"{"type":"preferences"}"#).get() == .preferences(theme: nil, reducedMotion: nil))
        let e = refusal(#"{"type":"preferences","theme":"blue"}"#)
        #expect(
            e?.code == .badMessage && e?.message.hasPrefix("preferences.theme must be ") == true,
            "\(String(describing: e))")
        // Neither reaches a widget; only input is echoed as applied.
        #expect(InputMapping.sceneInputs(.hover(at: nil, t: 1), client: "a").isEmpty)
        #expect(ClientMessage.hover(at: nil, t: 1).inputTimes == nil)
        let move = try ClientMessage.parse(
            #"{"type":"pointer","phase":"move","id":1,"x":1,"y":2,"t":9,"coalesced":[[1,2,7],[1,2,8]]}"#
        ).get()
        #expect(move.inputTimes?.first == 7 && move.inputTimes?.last == 8)
    }
}

/// docs/PROTOCOL.md, `semantics`: `set` names the action that sets a widget's value, its argument
/// and what the argument takes; only widgets with such an action have one.
@Suite struct WireSemanticsSetTests {
    /// The setters docs/PROTOCOL.md lists ("Widget actions"): the ruler's and the picker's
    /// `setValue {value}`, the roller's `changeTo {n}` (an integer), the carousel's `select {index}`.
    static let documented: [String: [String: String]] = [
        "ruler": ["action": "setValue", "argument": "value", "takes": "number"],
        "picker": ["action": "setValue", "argument": "value", "takes": "number"],
        "roller": ["action": "changeTo", "argument": "n", "takes": "integer"],
        "carousel": ["action": "select", "argument": "index", "takes": "option"],
    ]

    /// Each widget's `set` as the semantics message carries it (nil: absent).
    static func setters(_ scene: Scene) throws -> [String: [String: String]?] {
        let text = ServerMessage.semantics(scene.semantics)
        let message = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(message["type"] as? String == "semantics")
        let widgets = try #require(message["widgets"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: widgets.map { w in
                (w["id"] as? String ?? "?", w["set"].map { $0 as? [String: String] ?? ["not": "an object of strings"] })
            })
    }

    @Test("every scene's semantics: the documented setters, and no set on readouts, labels and buttons")
    func documentedSetters() throws {
        for name in SceneCatalog.standard.names {
            let scene = try #require(SceneCatalog.standard.make(name))
            let setters = try Self.setters(scene)
            #expect(!setters.isEmpty)
            for (id, set) in setters {
                #expect(set == Self.documented[id], "\(name): \(id)")
            }
        }
    }

    @Test("a setter is one of the widget's actions, and the scene accepts it with its argument as `takes` says")
    func settersAreActions() throws {
        // 42 is a value of the ruler (kg), the picker (tick) and the roller; 0 the carousel's first item.
        let sample: [ValueSetter.Takes: JSONValue] = [.number: 42, .integer: 42, .option: 0]
        for name in SceneCatalog.standard.names {
            let scene = try #require(SceneCatalog.standard.make(name))
            for s in scene.semantics {
                guard let set = s.set else { continue }
                #expect(s.actions.contains(set.action), "\(name): \(s.id)")
                let action = ActionInput(widget: s.id, name: set.action, args: [set.argument: sample[set.takes]!])
                #expect(throws: Never.self, "\(name): \(s.id)") { _ = try scene.check(action) }
            }
        }
    }
}

/// docs/PROTOCOL.md, `semantics`: `catches` names the layer whose glide a pointer down inside the
/// widget's rect catches: the ruler's, the picker's and the carousel's, in every scene.
@Suite struct WireSemanticsCatchesTests {
    @Test("the scroll widgets catch their own layer (index + 1); readouts, labels and buttons catch nothing")
    func catchers() throws {
        for name in SceneCatalog.standard.names {
            let scene = try #require(SceneCatalog.standard.make(name))
            let text = ServerMessage.semantics(scene.semantics)
            let message = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let widgets = try #require(message["widgets"] as? [[String: Any]])
            for (i, w) in widgets.enumerated() {
                let id = w["id"] as? String ?? "?"
                let catches = w["catches"] as? [String: Any]
                if ["ruler", "picker", "carousel"].contains(id) {
                    #expect(catches?["layer"] as? Int == i + 1, "\(name): \(id)")
                    // A catch stops the glide where it is: the widget's layer is its own.
                    #expect(scene.widgets[i].id == id)
                } else {
                    #expect(catches == nil, "\(name): \(id)")
                }
            }
        }
    }
}
