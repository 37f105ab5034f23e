import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// Public/js/client.js, the one client the page (app.js) and `<scroll-widget>` (embed.js) share,
/// must act on every message type and every event type the server sends: a message of each
/// `ServerMessage.Kind` and an event of each `SceneEvent.Kind.Name`, written by ScrollCore as the
/// server writes them, is handed to a client in Chromium, which must do what docs/PROTOCOL.md says
/// and know every type. A type added on the server without a rule on the page fails here.
@Suite(.serialized) struct BrowserClientTests {
    /// A message of `kind` as the server writes it, and the hook (or HUD call) handling it must reach.
    static func sample(_ kind: ServerMessage.Kind) -> (text: String, call: String) {
        let scene = RulerScene.make()
        switch kind {
        case .welcome:
            return (
                ServerMessage.welcome(
                    client: "c1", color: Color(hex: 0x1C7ED6), room: "r", scene: scene, theme: "light"), "on.welcome"
            )
        case .semantics: return (ServerMessage.semantics(scene.semantics), "on.semantics")
        case .presence:
            var presence = Presence()
            _ = presence.join("c1")
            return (ServerMessage.presence(presence), "on.presence")
        case .events:
            // An events message with nothing that happened (only `ahead` or `cancel`) calls no hook.
            let moving = SceneEvent(time: 1.5, widget: "w", kind: .value(72.9, text: "72.9 kg", final: false))
            return (ServerMessage.events([moving]), "on.events")
        case .error: return (ServerMessage.error(ProtocolError(.badAction, "no widget \"x\"")), "on.error")
        case .applied: return (ServerMessage.applied(t: 12.5), "hud.applied")
        case .pong: return (ServerMessage.pong(t: 12.5), "hud.pong")
        }
    }

    /// An event of type `name`, and what the page does with it (docs/PROTOCOL.md, "What the page
    /// does with events"): the text it speaks, and whether it is felt as a haptic.
    static func sample(_ name: SceneEvent.Kind.Name) -> [(event: SceneEvent, spoken: String, felt: Bool)] {
        func event(_ kind: SceneEvent.Kind) -> SceneEvent { SceneEvent(time: 1.5, widget: "w", kind: kind) }
        switch name {
        case .value:
            return [
                (event(.value(73, text: "73.0 kg", final: true)), "73.0 kg", false),
                (event(.value(72.9, text: "72.9 kg", final: false)), "", false),  // nothing per tick
            ]
        case .moved: return [(event(.moved(5)), "", false)]
        case .selected: return [(event(.selected(index: 4, name: "Leaf")), "Leaf", false)]
        case .added: return [(event(.added(index: 5, name: "Item 7")), "Added Item 7", false)]
        case .deleted: return [(event(.deleted(index: 4, name: "Leaf")), "Deleted Leaf", false)]
        case .haptic: return [(event(.haptic("selection")), "", true)]
        case .announce: return [(event(.announcement("Reached the end")), "Reached the end", false)]
        }
    }

    /// Hands each message text to a fresh client (not connected) on the demo page and returns, per
    /// message, the hooks and HUD calls it made, what its live region said, the haptics it passed on
    /// and the types it did not know.
    static func handle(_ texts: [String], in b: Chromium) throws -> [[String: Any]] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: texts), as: UTF8.self)
        let results = try b.evaluate(
            """
            (async () => {
              const { SceneClient } = await import('/js/client.js');
              let calls = [], felt = 0;
              const record = (prefix) => new Proxy({}, { get: (t, k) => (...a) => {
                calls.push(prefix + String(k));
                if (k === 'haptics') felt += a[0].length;
              } });
              const announcer = document.createElement('div');
              const client = new SceneClient({
                canvas: document.createElement('canvas'), overlay: document.createElement('div'), announcer,
                preferences: () => ({ theme: 'light', reducedMotion: false }), hud: record('hud.'), on: record('on.'),
              });
              return \(json).map((text) => {
                calls = []; felt = 0; announcer.textContent = ''; client.unknown.clear();
                client.receive(JSON.parse(text));
                return { calls, spoken: announcer.textContent, felt, unknown: [...client.unknown] };
              });
            })()
            """)
        return try #require(results as? [[String: Any]])
    }

    @Test("every message type the server sends reaches its handler; the page's list is the server's")
    func everyMessageType() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.navigate(server.httpURL)
        let kinds = ServerMessage.Kind.allCases
        let results = try Self.handle(kinds.map { Self.sample($0).text }, in: b)
        for (kind, result) in zip(kinds, results) {
            #expect((result["unknown"] as? [String]) == [], "\(kind): \(result)")
            #expect((result["calls"] as? [String])?.contains(Self.sample(kind).call) == true, "\(kind): \(result)")
        }
        let listed = try #require(
            b.evaluate("import('/js/client.js').then((m) => m.MESSAGE_TYPES)") as? [String])
        #expect(listed.sorted() == kinds.map(\.rawValue).sorted())
        // The check can fail: a type the client does not know is reported, and handled by nothing.
        let unknown = try Self.handle([#"{"type":"weather","sky":"blue"}"#], in: b)
        #expect(unknown.first?["unknown"] as? [String] == ["message weather"])
        #expect((unknown.first?["calls"] as? [String]) == [])
    }

    @Test("events sent ahead due by a message's own are played first, in order; a cancel voids the later ones")
    func eventsAheadInOrder() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.navigate(server.httpURL)
        func value(_ t: Double, _ widget: String, _ v: Double, final: Bool = false) -> SceneEvent {
            SceneEvent(time: t, widget: widget, kind: .value(v, text: "\(v)", final: final))
        }
        let texts = [
            ServerMessage.events([], ahead: [1, 2, 3, 4].map { value(0.9 + 0.1 * $0, "ruler", $0) }),
            ServerMessage.events([value(1.15, "dial", 9)], cancel: [(widget: "ruler", after: 1.25)]),
            ServerMessage.events([value(1.5, "ruler", 3, final: true)]),
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: texts), as: UTF8.self)
        let batches = try #require(
            b.evaluate(
                """
                (async () => {
                  const { SceneClient } = await import('/js/client.js');
                  const batches = [];
                  const client = new SceneClient({
                    canvas: document.createElement('canvas'), overlay: document.createElement('div'),
                    announcer: document.createElement('div'),
                    preferences: () => ({ theme: 'light', reducedMotion: false }),
                    on: { events: (events) => batches.push(events.map((e) => e.widget + e.value + (e.final ? '!' : '')).join()) },
                  });
                  return \(json).map((text) => { client.receive(JSON.parse(text)); return batches.splice(0).join(' | '); });
                })()
                """) as? [String])
        // Nothing is played when it comes; the dial's event at 1.15 brings the ruler's 1.0 and 1.1
        // first; the cancel after 1.25 voids the ruler's 1.3; its final at 1.5 brings the 1.2 first.
        #expect(batches == ["", "ruler1,ruler2 | dial9", "ruler3 | ruler3!"], "\(batches)")
    }

    @Test("every event type the server sends has a rule: spoken, felt or left to the frames, as documented")
    func everyEventType() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.navigate(server.httpURL)
        let samples = SceneEvent.Kind.Name.allCases.flatMap { name in Self.sample(name).map { (name, $0) } }
        for (name, s) in samples { #expect(s.event.kind.name == name) }
        let results = try Self.handle(samples.map { ServerMessage.events([$0.1.event]) }, in: b)
        for ((name, s), result) in zip(samples, results) {
            #expect((result["unknown"] as? [String]) == [], "\(name): \(result)")
            #expect(result["spoken"] as? String == s.spoken, "\(name): \(result)")
            #expect((result["felt"] as? NSNumber)?.intValue == (s.felt ? 1 : 0), "\(name): \(result)")
            #expect((result["calls"] as? [String])?.contains("on.events") == true, "\(name): \(result)")
        }
        // One message's texts are spoken together, in order.
        let batch = try Self.handle([ServerMessage.events(samples.map(\.1.event))], in: b)
        #expect(
            batch.first?["spoken"] as? String
                == samples.map(\.1.spoken).filter { !$0.isEmpty }.joined(separator: ". "))
        let rules = try #require(
            b.evaluate("import('/js/client.js').then((m) => Object.keys(m.EVENT_RULES))") as? [String])
        #expect(rules.sorted() == SceneEvent.Kind.Name.allCases.map(\.rawValue).sorted())
        // The check can fail: an event type without a rule is reported.
        let unknown = try Self.handle([#"{"type":"events","events":[{"t":1,"widget":"w","type":"spin"}]}"#], in: b)
        #expect(unknown.first?["unknown"] as? [String] == ["event spin"])
    }

    @Test(
        "semantics patches: merged by id into the last whole list (null removes a field); none before a whole list, or after a welcome"
    )
    func semanticsPatches() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.navigate(server.httpURL)
        // The ruler scene at 72.5 kg; then both widgets at 87.4; then the ruler without its valueText.
        let before = RulerScene.make(rulerValue: 72.5).semantics, after = RulerScene.make(rulerValue: 87.4).semantics
        var bare = after
        for i in bare.indices where bare[i].id == "ruler" { bare[i].valueText = nil }
        func patch(_ old: [Semantics], _ new: [Semantics]) throws -> String {
            let text = SemanticsPatch.message(
                from: old.map(\.json), to: new.map(\.json), full: ServerMessage.semantics(new))
            return try #require(text)
        }
        let welcome = ServerMessage.welcome(
            client: "c1", color: Color(hex: 0x1C7ED6), room: "r", scene: RulerScene.make(), theme: "light")
        let texts = [
            try patch(before, after), ServerMessage.semantics(before), try patch(before, after),
            try patch(after, bare), welcome, try patch(bare, after), ServerMessage.semantics(after),
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: texts), as: UTF8.self)
        let results = try #require(
            b.evaluate(
                """
                (async () => {
                  const { SceneClient } = await import('/js/client.js');
                  const overlay = document.createElement('div');
                  const hooks = [];
                  const client = new SceneClient({
                    canvas: document.createElement('canvas'), overlay, announcer: document.createElement('div'),
                    preferences: () => ({ theme: 'light', reducedMotion: false }),
                    on: { semantics: (widgets) => hooks.push(widgets.map((w) => w.id).join()) },
                  });
                  // Each widget's element: id, aria-valuenow, aria-valuetext, text (a status shows its valueText).
                  const dom = () => [...overlay.querySelectorAll('[data-widget]')].map((el) =>
                    [el.dataset.widget, el.getAttribute('aria-valuenow'), el.getAttribute('aria-valuetext'), el.textContent].join('|'));
                  return \(json).map((text) => {
                    client.receive(JSON.parse(text));
                    return dom().join(' ') + ' / ' + hooks.splice(0).join(' ');
                  });
                })()
                """) as? [String])
        #expect(
            results == [
                " / ",  // a patch before any whole list: nothing
                "readout||72.5 kg|72.5 kg ruler|72.5|72.5 kg| / readout,ruler",
                "readout||87.4 kg|87.4 kg ruler|87.4|87.4 kg| / readout,ruler",
                "readout||87.4 kg|87.4 kg ruler|87.4|| / readout,ruler",  // null: the field is gone
                "readout||87.4 kg|87.4 kg ruler|87.4|| / ",  // the welcome: semantics come whole next
                "readout||87.4 kg|87.4 kg ruler|87.4|| / ",  // so this patch is passed over
                "readout||87.4 kg|87.4 kg ruler|87.4|87.4 kg| / readout,ruler",
            ], "\(results)")
    }

    @Test("the protocol version is written once, in client.js, and is the server's")
    func protocolVersionOnce() throws {
        let scripts = PackagePaths.publicDirectory.appendingPathComponent("js")
        let files = try FileManager.default.contentsOfDirectory(atPath: scripts.path).filter { $0.hasSuffix(".js") }
        var defining: [String] = []
        for file in files.sorted() {
            let source = try String(contentsOf: scripts.appendingPathComponent(file), encoding: .utf8)
            if source.contains("PROTOCOL_VERSION =") { defining.append(file) }
        }
        #expect(defining == ["client.js"])
        let client = try String(contentsOf: scripts.appendingPathComponent("client.js"), encoding: .utf8)
        #expect(client.contains("export const PROTOCOL_VERSION = \(ProtocolVersion.current);"))
    }
}
