import Foundation
import Testing

@testable import ScrollCore

/// The carousel's golden traces, each replayed against the scene its `# scene:` line
/// names (`carousel`, or `demo` for demo-carousel). The expected files come from
/// Traces/reference_model.py (an independent model of the carousel spec); the numbers below
/// are worked out by hand from the spec (w = 390/5 = 78, item k centred at x = 78k; every
/// ease 0.3 s; the fast glide 0.99 per ms, K = −1000·ln 0.99, done when 0.5 pt remain, then a
/// 0.3 s ease onto the nearest item; `selected` at the exact settle time, `added` and
/// `deleted` at once). Each trace's comment shows the same derivation.
@Suite struct CarouselGoldenTests {
    static let traces = [
        "carousel-tap.jsonl", "carousel-add.jsonl", "carousel-delete-swipe.jsonl", "carousel-delete-during.jsonl",
        "carousel-fling.jsonl", "carousel-keys.jsonl", "carousel-keys-held.jsonl", "carousel-glide-delete.jsonl",
        "carousel-glide-key.jsonl", "carousel-delete-key-moving.jsonl", "demo-carousel.jsonl",
    ]

    static let defaults = ["Sun", "Moon", "Star", "Heart", "Leaf", "Custom"]
    /// −1000·ln 0.99 (per second): v(t) = v0·e^(−Kt), x∞ = x0 + v0/K.
    static let k = -1000 * log(0.99)

    @Test("every carousel trace matches its expected file and keeps the spec's invariants", arguments: traces)
    func golden(trace: String) throws {
        #expect(TraceFiles.all.contains(trace))
        let result = try TraceFiles.replay(trace)
        try expectMatches(result, trace)
        try expectCarouselInvariants(result)
    }

    @Test("the carousel traces name their scenes")
    func scenes() throws {
        for trace in Self.traces {
            #expect(try TraceFiles.sceneName(trace) == (trace.hasPrefix("demo") ? "demo" : "carousel"), "\(trace)")
        }
    }

    @Test("tap to centre: Moon, Heart, Star, Leaf, Star, each 0.3 s after its tap's up; the rest ignored")
    func tap() throws {
        let result = try TraceFiles.replay("carousel-tap.jsonl")
        // Ups at 0.08, 1.06, 4.09, 5.3 (exactly 10 pt and 0.3 s: still a tap) and 8.35 (0.25 s
        // of client time, applied 0.35 s after the down): each eases 0.3 s to the tapped item.
        expectEvents(
            result.carouselEvents,
            [
                (0.38, "selected", 1, "Moon"), (1.36, "selected", 3, "Heart"), (4.39, "selected", 2, "Star"),
                (5.6, "selected", 4, "Leaf"), (8.65, "selected", 2, "Star"),
            ], within: 1e-9)
        // The drag that came down during the first ease (0.2 s) never moved anything; a long
        // press, a tap on the centred item, an empty cell and the label, and a 0.35 s (client
        // time) press add nothing.
        #expect(result.carousel?.names == Self.defaults)
        #expect(result.carousel?.selectedName == "Star")
    }

    @Test("add: tap Custom, add {name}, add {}; names count every item made; refusals change nothing")
    func add() throws {
        let result = try TraceFiles.replay("carousel-add.jsonl")
        expectEvents(
            result.carouselEvents,
            [
                (0.3, "selected", 4, "Leaf"),
                (0.56, "added", 5, "Item 7"), (0.86, "selected", 5, "Item 7"),
                (1.2, "added", 6, "Comet"), (1.5, "selected", 6, "Comet"),
                (2.0, "added", 7, "Item 9"), (2.3, "selected", 7, "Item 9"),
                (2.8, "selected", 8, "Custom"),
                // Custom was centred: the new item takes index 8 in place, another item there.
                (3.06, "added", 8, "Item 10"), (3.36, "selected", 8, "Item 10"),
                // The add retargets the select {0} running since 4.0: index 0 never settles.
                (4.1, "added", 9, "Nova"), (4.4, "selected", 9, "Nova"),
                (5.2, "added", 10, "Item 12"), (5.5, "selected", 10, "Item 12"),
            ], within: 1e-9)
        // Each `selected` after an add is 0.3 s after it.
        let events = result.carouselEvents
        for (a, s) in zip(events, events.dropFirst()) where a.type == "added" {
            #expect(s.type == "selected" && s.index == a.index && abs(s.time - a.time - 0.3) < 1e-9)
        }
        #expect(
            result.carousel?.names
                == [
                    "Sun", "Moon", "Star", "Heart", "Leaf", "Item 7", "Comet", "Item 9", "Item 10", "Nova", "Item 12",
                    "Custom",
                ])
        #expect(result.refused.count == 2)
        #expect(result.refused.first?.message.contains("name") == true)
        #expect(result.refused.last?.message.contains("index") == true)
    }

    @Test("swipe-up delete at the start, in the middle, at the end and before the centre; never Custom")
    func deleteSwipe() throws {
        let result = try TraceFiles.replay("carousel-delete-swipe.jsonl")
        // Each delete at its recognising sample (upward travel > 40 pt), its selection 0.3 s on.
        expectEvents(
            result.carouselEvents,
            [
                (0.3, "selected", 0, "Sun"),
                (0.54, "deleted", 0, "Sun"), (0.84, "selected", 0, "Moon"),
                (2.3, "selected", 2, "Heart"),
                (2.54, "deleted", 2, "Heart"), (2.84, "selected", 2, "Leaf"),
                (3.52, "deleted", 2, "Leaf"), (3.82, "selected", 2, "Custom"),
                // Moon before the centre (t = 2 > 0 → t' = 1): Custom stays centred at index 1,
                // settled 0.3 s after the swipe although the finger stays down until 6.5.
                (5.52, "deleted", 0, "Moon"), (5.82, "selected", 1, "Custom"),
            ], within: 1e-9)
        #expect(result.carousel?.names == ["Star", "Custom"])
        #expect(result.carousel?.selectedName == "Custom")
    }

    @Test("deletes during animations: mid-select, two 0.1 s apart, an add mid-delete, down to Custom alone")
    func deleteDuring() throws {
        let result = try TraceFiles.replay("carousel-delete-during.jsonl")
        expectEvents(
            result.carouselEvents,
            [
                // delete {1} 0.1 s into select {4}: heading for 4 → 3, the same Leaf.
                (0.1, "deleted", 1, "Moon"), (0.4, "selected", 3, "Leaf"),
                // Two deletes 0.1 s apart: settles 0.3 s after the second, on Leaf again.
                (1.0, "deleted", 0, "Sun"), (1.1, "deleted", 0, "Star"), (1.4, "selected", 1, "Leaf"),
                (2.0, "deleted", 0, "Heart"), (2.1, "added", 1, "Nova"), (2.4, "selected", 1, "Nova"),
                (3.1, "deleted", 1, "Nova"), (3.4, "selected", 0, "Leaf"),
                // The Delete key: the last item but Custom goes; Custom alone remains.
                (4.5, "deleted", 0, "Leaf"), (4.8, "selected", 0, "Custom"),
                // The 8th item made (Nova was the 7th).
                (6.0, "added", 0, "Item 8"), (6.3, "selected", 0, "Item 8"),
                (7.0, "added", 1, "Ash"), (7.3, "selected", 1, "Ash"),
                (7.5, "added", 2, "Elm"), (7.8, "selected", 2, "Elm"),
                // Under a finger the row stays put (x = 133); lifted at 8.3 it settles on the
                // nearest item, round(133/78) = 2.
                (8.1, "deleted", 0, "Item 8"), (8.6, "selected", 2, "Custom"),
            ], within: 1e-9)
        #expect(result.carousel?.names == ["Ash", "Elm", "Custom"])
        #expect(result.refused.map(\.message).first == "delete on \"carousel\": \"Custom\" cannot be deleted")
        #expect(result.refused.count == 2)
    }

    @Test("drag and fling: the fast glide lands centred on Leaf; a caught glide is no tap; slow drags settle")
    func fling() throws {
        let result = try TraceFiles.replay("carousel-fling.jsonl")
        // x = 264 at the lift (0.16 s), content +750 pt/s: x∞ = 264 + 750/K = 338.62 → item 4;
        // the glide is done when 0.5 pt remain, ln(750/(0.5K))/K later, then a 0.3 s ease.
        let k = Self.k
        #expect(abs(264 + 750 / k - 338.624_371_855) < 1e-6)
        let rest = 0.16 + log(750 / (0.5 * k)) / k + 0.3
        // Caught at 2.16, 0.08 s into the glide from 207 at −1500 pt/s: x = 124.54 → item 2.
        let caught = 207 - 1500 / k * (1 - exp(-k * 0.08))
        #expect(abs(caught - 124.543_533_725) < 1e-6 && (caught / 78).rounded() == 2)
        expectEvents(
            result.carouselEvents,
            [
                (rest, "selected", 4, "Leaf"), (2.51, "selected", 2, "Star"), (4.5, "selected", 3, "Heart"),
                (5.34, "selected", 2, "Star"),
            ], within: 1e-6)
        #expect(abs(rest - 0.958_054_433_986) < 1e-9)
        // The drag at 3.0 ends at x = 194 (2.49 → Star): no event between 2.51 and 4.5.
        #expect(!result.events.contains { $0.time > 2.6 && $0.time < 4.4 })
    }

    @Test("keys: arrows from the index it is heading for (clamped), Home, End, Delete and Backspace")
    func keys() throws {
        let result = try TraceFiles.replay("carousel-keys.jsonl")
        expectEvents(
            result.carouselEvents,
            [
                (0.4, "selected", 4, "Leaf"), (1.3, "selected", 5, "Custom"), (2.3, "selected", 4, "Leaf"),
                (2.8, "selected", 3, "Heart"), (3.3, "selected", 0, "Sun"), (4.3, "selected", 5, "Custom"),
                (5.3, "selected", 4, "Leaf"),
                (5.5, "deleted", 4, "Leaf"), (5.8, "selected", 4, "Custom"),
                (6.3, "selected", 0, "Sun"),
                (6.5, "deleted", 0, "Sun"), (6.8, "selected", 0, "Moon"),
                (7.9, "selected", 2, "Heart"),
            ], within: 1e-9)
        // Every key ease takes 0.3 s: each settle is 0.3 s after a key line.
        let keyTimes = try TraceFiles.entries("carousel-keys.jsonl").map { $0.sceneTime / 1000 }
        for e in result.carouselEvents where e.type == "selected" {
            #expect(keyTimes.contains { abs(e.time - 0.3 - $0) < 1e-9 }, "selected at \(e.time)")
        }
        #expect(result.carousel?.names == ["Moon", "Star", "Heart", "Custom"])
    }

    @Test("keys while a finger holds the carousel are ignored (PROTOCOL.md): no delete under a finger")
    func keysHeld() throws {
        let result = try TraceFiles.replay("carousel-keys-held.jsonl")
        expectEvents(result.carouselEvents, [(1.3, "selected", 3, "Heart")], within: 1e-9)
        #expect(result.carousel?.names == Self.defaults)
    }

    @Test("a delete during a glide keeps heading for the item the glide lands on (nearest x∞)")
    func glideDelete() throws {
        let result = try TraceFiles.replay("carousel-glide-delete.jsonl")
        // x∞ = 338.62 → Leaf (4); at 0.17 the centre is over 271.1 (Heart's half), but the row
        // is heading for Leaf: k = 0 < 4 → t' = 3, Leaf's new index.
        let x = 264 + 750 / Self.k * (1 - exp(-Self.k * 0.01))
        #expect(abs(x - 271.135_427_591) < 1e-6 && (x / 78).rounded() == 3)
        expectEvents(result.carouselEvents, [(0.17, "deleted", 0, "Sun"), (0.47, "selected", 3, "Leaf")], within: 1e-9)
        #expect(result.carousel?.names == ["Moon", "Star", "Heart", "Leaf", "Custom"])
    }

    @Test("an arrow key during a glide steps from the item the glide lands on")
    func glideKey() throws {
        let result = try TraceFiles.replay("carousel-glide-key.jsonl")
        // x∞ = 96 − 750/K = 21.38 → Sun (0); ArrowRight → 1, Moon (under the centre: Moon too,
        // x = 88.86, so stepping from it would give Star).
        #expect(abs(96 - 750 / Self.k - 21.375_628_145) < 1e-6)
        expectEvents(result.carouselEvents, [(1.406, "selected", 1, "Moon")], within: 1e-9)
    }

    @Test("Delete during a select animation deletes the selected item, not the target")
    func deleteKeyMoving() throws {
        let result = try TraceFiles.replay("carousel-delete-key-moving.jsonl")
        expectEvents(result.carouselEvents, [(0.1, "deleted", 2, "Star"), (0.4, "selected", 2, "Heart")], within: 1e-9)
        #expect(result.carousel?.names == ["Sun", "Moon", "Heart", "Leaf", "Custom"])
    }

    @Test("demo scene: the carousel beside the ruler and the picker, events merged in time order")
    func demo() throws {
        let result = try TraceFiles.replay("demo-carousel.jsonl")
        expectEvents(
            result.carouselEvents,
            [
                (0.36, "selected", 1, "Moon"), (1.0, "added", 5, "Item 7"), (1.3, "selected", 5, "Item 7"),
                (1.54, "deleted", 5, "Item 7"), (1.84, "selected", 5, "Custom"), (2.3, "selected", 4, "Leaf"),
            ], within: 1e-9)
        // A key without a widget goes to the ruler; an action without one too (it has no add).
        #expect(result.finals("ruler").map(\.value) == [72.6])
        expectTimes(result.finals("ruler").map(\.time), [0.7], within: 1e-9)
        #expect(result.finals("picker").map(\.value) == [1])
        expectTimes(result.finals("picker").map(\.time), [2.25], within: 1e-9)
        #expect(result.refused.count == 1)
        #expect(result.carousel?.names == Self.defaults)
        #expect(result.scene.semantics.first { $0.id == "itemName" }?.valueText == "Leaf")
    }

    /// Spec rules every carousel replay keeps, whatever the input.
    func expectCarouselInvariants(_ result: ReplayResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (a, b) in zip(result.events, result.events.dropFirst()) {
            #expect(a.time <= b.time + 1e-12, "events out of order at \(b.time)", sourceLocation: sourceLocation)
        }
        // Replaying added / deleted on the default names gives the final row; on the way the
        // row is never empty, "Custom" is always last and never deleted, and every `selected`
        // names the item at its index then.
        var names = Self.defaults
        var last: CarouselEvent?
        for e in result.carouselEvents {
            switch e.type {
            case "added":
                #expect(e.index == names.count - 1, "added before Custom", sourceLocation: sourceLocation)
                names.insert(e.name, at: min(max(e.index, 0), names.count))
            case "deleted":
                #expect(names.indices.contains(e.index) && names[e.index] == e.name, sourceLocation: sourceLocation)
                #expect(e.name != "Custom" && e.index < names.count - 1, sourceLocation: sourceLocation)
                if names.indices.contains(e.index) { names.remove(at: e.index) }
            default:
                #expect(
                    names.indices.contains(e.index) && names[e.index] == e.name, "selected \(e)",
                    sourceLocation: sourceLocation)
                // Reported only when the index or the item changes.
                #expect(last.map { $0.index != e.index || $0.name != e.name } ?? true, sourceLocation: sourceLocation)
                last = e
            }
            #expect(!names.isEmpty && names.last == "Custom", sourceLocation: sourceLocation)
        }
        let carousel = try #require(result.carousel, sourceLocation: sourceLocation)
        #expect(carousel.names == names, sourceLocation: sourceLocation)
        // The label and the listbox show the last settled selection (Star before any).
        let shown = last?.name ?? "Star"
        #expect(carousel.selectedName == shown, sourceLocation: sourceLocation)
        #expect(
            result.scene.semantics.first { $0.id == "itemName" }?.valueText == shown, sourceLocation: sourceLocation)
        let options = result.scene.semantics.first { $0.id == "carousel" }?.options ?? []
        #expect(options.map(\.label) == names, sourceLocation: sourceLocation)
        #expect(options.filter(\.selected).map(\.label) == [shown], sourceLocation: sourceLocation)
        // At rest, centred on the selection.
        #expect(!result.scene.isAnimating, sourceLocation: sourceLocation)
        #expect(
            abs(carousel.contentOffset - Double(carousel.selection) * carousel.cell) < 1e-9,
            sourceLocation: sourceLocation)
    }
}

/// One carousel event: `selected`, `added` or `deleted`.
struct CarouselEvent: Equatable, CustomStringConvertible {
    var time: Double
    var type: String
    var index: Int
    var name: String
    var description: String { "(\(time), \(type), \(index), \(name))" }
}

func expectEvents(
    _ actual: [CarouselEvent], _ expected: [(Double, String, Int, String)], within tolerance: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "\(actual)", sourceLocation: sourceLocation)
    for (a, e) in zip(actual, expected) {
        #expect(
            a.type == e.1 && a.index == e.2 && a.name == e.3 && abs(a.time - e.0) <= tolerance,
            "\(a), expected \(e)", sourceLocation: sourceLocation)
    }
}

extension SceneEvent {
    var isSelection: Bool { if case .selected = kind { true } else { false } }
}

extension ReplayResult {
    var carousel: Carousel? { scene.widget("carousel") as? Carousel }

    /// The carousel's events, in order.
    var carouselEvents: [CarouselEvent] {
        events.compactMap { e in
            switch e.kind {
            case let .selected(index, name): CarouselEvent(time: e.time, type: "selected", index: index, name: name)
            case let .added(index, name): CarouselEvent(time: e.time, type: "added", index: index, name: name)
            case let .deleted(index, name): CarouselEvent(time: e.time, type: "deleted", index: index, name: name)
            default: nil
            }
        }
    }
}
