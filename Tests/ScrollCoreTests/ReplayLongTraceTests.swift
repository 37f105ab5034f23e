import Testing

@testable import ScrollCore

/// Virtual time: ten minutes of input replay at once, with no sleeping.
@Suite struct ReplayLongTraceTests {
    /// A slow 104 pt drag to the left every 3 s for 600 s (200 drags). Each raises the value
    /// by 1.04 kg and is revised to the nearest tick, i.e. by exactly 1.0 kg.
    static func tenMinutes() -> [TraceEntry] {
        var entries: [TraceEntry] = []
        let y = DemoScene.rulerFrame.midY
        for n in 0..<200 {
            let t0 = Double(n) * 3000
            entries.append(.pointer(.down, t: t0, x: 300, y: y))
            for i in 1...8 { entries.append(.pointer(.move, t: t0 + 25 * Double(i), x: 300 - 13 * Double(i), y: y)) }
            entries.append(.pointer(.up, t: t0 + 300, x: 196, y: y))
        }
        return entries
    }

    @Test("200 drags over 600 s: 72.5 + 200 × 1.0 = 272.5 kg, one final value per drag")
    func tenMinuteTrace() throws {
        let entries = Self.tenMinutes()
        #expect(entries.last!.t >= 597_000)
        // Through the text format and back, as a recorded file would be.
        let text = entries.map(\.jsonLine).joined(separator: "\n")
        let result = Replayer().run(try TraceParser.parse(text, name: "ten-minutes.jsonl"))
        #expect(result.rulerValue == 272.5)
        #expect(result.finalValues.count == 200)
        #expect(result.finalValues.first == 73.5)
        #expect(result.finalValues.last == 272.5)
        // The last drag lifts at 597.3 s and is revised in 0.2 s.
        #expect(abs((result.finalEvents.last?.time ?? 0) - 597.5) < 1e-6)
    }
}
