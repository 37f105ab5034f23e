import Foundation
import ScrollCore
import Testing

@testable import ScrollServer

/// A ruler glide's value reports go ahead (docs/PROTOCOL.md, "Events ahead"), through the real
/// switchboard on a fake clock: what a watcher is sent from the release to the rest, what a catch
/// withdraws, and what a client joining mid-glide is owed.
struct SwitchboardEventsAheadTests {
    /// Every message client `id` is owed: its type, its JSON (text only) and its size.
    static func messages(_ h: BoardHarness, _ id: UInt64) -> [(type: String, json: [String: Any], bytes: Int)] {
        var got: [(String, [String: Any], Int)] = []
        while h.board.owesMore(id) {
            guard case .write(let payload, let kind) = h.board.next(id) else { break }
            guard kind == .text else {
                got.append(("frame", [:], payload.count))
                continue
            }
            let json = (try? JSONSerialization.jsonObject(with: Data(payload.text.utf8)) as? [String: Any]) ?? [:]
            got.append((json["type"] as? String ?? "?", json, payload.count))
        }
        return got
    }

    /// The value events of a message's `events`, or of its `ahead` runs as a page plays them.
    static func values(_ events: Any?, ahead: Bool = false) -> [(t: Double, value: Double, final: Bool)] {
        let list = ahead ? ServerMessage.aheadEvents(events) : (events as? [[String: Any]]) ?? []
        return list.filter { $0["type"] as? String == "value" }.map {
            (($0["t"] as? Double) ?? -1, ($0["value"] as? Double) ?? -1, ($0["final"] as? Bool) ?? false)
        }
    }

    /// A switchboard with client 1 (the driver) and 2 (the watcher) in the ruler scene, all read.
    static func driverAndWatcher() throws -> BoardHarness {
        let h = try BoardHarness()
        h.join(1)
        h.join(2)
        _ = h.read(1)
        _ = h.read(2)
        return h
    }

    @Test("a watcher of a 2,500 pt/s ruler fling: one events message ahead, the final at the rest, ≤ 10 messages")
    func watcherOfAFling() throws {
        let h = try Self.driverAndWatcher()
        // The harness's fling, read up to its lift: 6 moves of 40 pt 16 ms apart.
        var t = 1000.0
        h.pointer(1, .down, x: 300, t: t)
        for i in 1...6 {
            h.clock.advance(by: 0.016)
            t += 16
            h.pointer(1, .move, x: 300 - 40 * Double(i), t: t)
        }
        _ = h.read(1)
        _ = h.read(2)
        h.pointer(1, .up, x: 60, t: t)
        _ = h.read(1)
        var got = Self.messages(h, 2)
        h.runTicks(readers: [1]) { _, _ in got += Self.messages(h, 2) }
        let events = got.filter { $0.type == "events" }
        let ahead = events.flatMap { Self.values($0.json["ahead"], ahead: true) }
        let streamed = events.flatMap { Self.values($0.json["events"]) }
        // The release's step said what the glide will report; nothing moving comes after it.
        #expect(events.filter { $0.json["ahead"] != nil }.count == 1)
        // One run: its gaps in ms to the microsecond, its texts its values to 0.1 with " kg" ("74.2 kg")
        // as a format the page rebuilds them by.
        let runs = events.compactMap { $0.json["ahead"] as? [[String: Any]] }.flatMap { $0 }
        let format = runs.first?["text"] as? [String: Any]
        #expect(runs.count == 1 && format?.count == 2)
        #expect(format?["fixed"] as? Int == 1 && format?["suffix"] as? String == " kg")
        // Equal gaps in a row as [gap, count]: the reports one a frame tick (16 ms) as one.
        let dt = (runs.first?["dt"] as? [Any]) ?? []
        let gaps = dt.flatMap { g -> [Double] in
            if let pair = g as? [Double], pair.count == 2 { return Array(repeating: pair[0], count: Int(pair[1])) }
            return (g as? Double).map { [$0] } ?? [.nan]
        }
        #expect(dt.contains { ($0 as? [Double]).map { $0[0] == 16 && $0[1] >= 3 } ?? false }, "\(dt)")
        #expect(dt.count < gaps.count)
        #expect(gaps.count == ahead.count - 1 && gaps.allSatisfy { abs($0 * 1000 - ($0 * 1000).rounded()) < 1e-6 })
        let texts = ServerMessage.aheadEvents(events.first { $0.json["ahead"] != nil }?.json["ahead"])
        #expect(texts.map { $0["text"] as? String } == ahead.map { String(format: "%.1f kg", $0.value) })
        #expect(ahead.count >= 30 && ahead.allSatisfy { !$0.final })
        for (a, b) in zip(ahead, ahead.dropFirst()) {
            #expect(b.t - a.t >= 0.016 - 1e-9)
            #expect(b.value > a.value)  // a fling to the left: the value rises
        }
        let final = streamed.filter(\.final)
        #expect(final.count == 1 && streamed.filter { !$0.final }.isEmpty)
        #expect((final.first?.t ?? 0) > (ahead.last?.t ?? .infinity))
        #expect((final.first?.value ?? 0) >= (ahead.last?.value ?? .infinity))
        // Semantics: the settled value, then the room at rest (the readout done rolling).
        #expect(got.filter { $0.type == "semantics" }.count <= 2)
        // The goal for a watcher of a ruler fling: ≤ 10 messages from the release to the rest.
        #expect(got.count <= 10, "\(got.map(\.type))")
    }

    @Test("a catch mid-glide withdraws what was still to come, after the catch's room time")
    func catchWithdraws() throws {
        let h = try Self.driverAndWatcher()
        h.fling(1)
        _ = h.read(1)
        let release = Self.messages(h, 2).flatMap { Self.values($0.json["ahead"], ahead: true) }
        #expect(release.count >= 30)
        for _ in 0..<18 { h.fireTick() }
        _ = Self.messages(h, 1)
        #expect(Self.messages(h, 2).allSatisfy { Self.values($0.json["events"]).isEmpty })
        h.pointer(1, .down, x: 200, t: 2000)
        let caught = Self.messages(h, 2).filter { $0.type == "events" }
        let cancel = caught.compactMap { $0.json["cancel"] as? [[String: Any]] }.flatMap { $0 }
        #expect(cancel.count == 1 && cancel.first?["widget"] as? String == "ruler")
        let after = (cancel.first?["after"] as? Double) ?? -1
        // Withdrawn from the catch on: some of what went ahead had come by then, some had not.
        #expect(release.contains { $0.t <= after } && release.contains { $0.t > after })
        // Let go where it was caught: its final value is streamed.
        h.pointer(1, .up, x: 200, t: 2100)
        var later: [(type: String, json: [String: Any], bytes: Int)] = []
        h.runTicks(readers: [1]) { _, _ in later += Self.messages(h, 2) }
        later += Self.messages(h, 2)
        #expect(later.flatMap { Self.values($0.json["events"]) }.filter(\.final).count == 1)
    }

    @Test("a client joining mid-glide is sent what is still to come, straight after its welcome")
    func joinerMidGlide() throws {
        let h = try BoardHarness()
        h.join(1)
        _ = h.read(1)
        h.fling(1)
        let ahead = Self.messages(h, 1).flatMap { Self.values($0.json["ahead"], ahead: true) }
        for _ in 0..<12 { h.fireTick() }
        _ = h.read(1)
        h.join(2)
        let joined = Self.messages(h, 2)
        #expect(joined.first?.type == "welcome")
        #expect(joined.dropFirst().first?.type == "events")
        let owed = Self.values(joined.dropFirst().first?.json["ahead"], ahead: true)
        #expect(!owed.isEmpty && owed.count < ahead.count)
        #expect(owed.map(\.value) == ahead.suffix(owed.count).map(\.value))
    }
}
