import Foundation
import Testing

/// Public/js/events-ahead.js (docs/PROTOCOL.md, "Events ahead"): runs sent ahead become events kept
/// in time order, taken out when due, and withdrawn by a cancel after its time, that widget's only.
@Suite(.serialized) struct BrowserEventsAheadTests {
    @Test("runs expanded and kept in time order (stable), due by a time, cancelled for one widget; bad entries ignored")
    func eventsAhead() throws {
        let got = try #require(
            Chromium.evaluateOnPage(
                """
                (async () => {
                  const { EventsAhead } = await import('/js/events-ahead.js');
                  const a = new EventsAhead();
                  const v = (t, widget, value) => ({ t0: t, dt: [], widget, type: 'value', value: [value] });
                  const out = [a.next];
                  // Runs: times t0 and gaps dt (ms), a field an array (one per event) or one value for all.
                  a.add([{ t0: 1.2, dt: [-200], widget: 'ruler', type: 'value', value: [3, 1] }, v(1.1, 'dial', 9),
                         { t0: 'x', dt: [] }, null, { t0: NaN, dt: [], widget: 'dial', value: 0 },
                         { t0: 1, dt: ['x'], widget: 'dial', value: 0 }, { t: [1], widget: 'dial', value: 0 }]);
                  a.add([{ t0: 1.0, dt: [], widget: 'dial', type: 'value', value: 8 }, v(1.3, 'ruler', 4)]);
                  out.push(a.next);
                  out.push(a.due(0.99).length);
                  out.push(a.due(1.1).map(e => e.widget + e.value).join());  // 1.0 ruler, 1.0 dial, 1.1 dial
                  a.cancel([{ widget: 'ruler', after: 1.25 }, { widget: 7, after: 0 }, { widget: 'dial' }]);
                  out.push(a.list.map(e => e.widget + e.value).join());       // 1.3 withdrawn
                  out.push(a.due(5).map(e => e.value).join());
                  out.push(a.next);
                  a.add([v(2, 'ruler', 5)]); a.clear();
                  out.push(a.list.length);
                  return out;
                })()
                """) as? [Any])
        #expect(got.count == 8, "\(got)")
        #expect(got[0] is NSNull && (got[1] as? NSNumber)?.doubleValue == 1.0, "\(got)")
        #expect((got[2] as? NSNumber)?.intValue == 0, "\(got)")
        #expect(got[3] as? String == "ruler1,dial8,dial9", "\(got)")
        #expect(got[4] as? String == "ruler3", "\(got)")
        #expect(got[5] as? String == "3" && got[6] is NSNull, "\(got)")
        #expect((got[7] as? NSNumber)?.intValue == 0, "\(got)")
    }

    @Test("a run's times are t0 and its gaps added in whole microseconds; a text format writes each value with toFixed")
    func timesAndTexts() throws {
        let runs = """
            [{ "t0": 3600.000001, "dt": [16.667, 0.001, 3776.65], "widget": "w", "type": "value",
               "value": [0.25, -0.04, 72.5, 1], "text": { "fixed": 1, "prefix": "~", "suffix": " kg" }, "final": false },
             { "t0": 7000, "dt": [], "widget": "w", "type": "value", "value": 37, "text": { "fixed": 101 } },
             { "t0": 8000, "dt": [[16, 3], 20], "widget": "v", "type": "moved", "value": 1 },
             { "t0": 9000, "dt": [[16, 0]], "widget": "v", "type": "moved", "value": 2 },
             { "t0": 9000, "dt": [[16, 2.5]], "widget": "v", "type": "moved", "value": 3 },
             { "t0": 9500, "dt": [1, 2], "widget": "u", "type": "moved", "steps": { "value": [17, 1] } },
             { "times": 5, "widget": "u", "type": "haptic", "style": "selection" }]
            """
        let played =
            "import('/js/events-ahead.js').then(({ EventsAhead }) => { const a = new EventsAhead(); "
            + "a.add(\(runs)); return a.list.map(e => [e.t, e.text, e.final, e.type, e.value ?? null]); })"
        let got = try #require(Chromium.evaluateOnPage(played) as? [[Any]])
        // Each time exactly the microseconds summed: 3600.000001 + 16.667 ms + 1 µs + 3776.65 ms.
        // Then [16, 3]: three gaps of 16 ms, and 20 ms; a count that is not a whole number ≥ 1 voids its run.
        #expect(
            got.map { ($0.first as? NSNumber)?.doubleValue } == [
                3600.000001, 3600.016668, 3600.016669, 3603.793319, 7000, 8000, 8000.016, 8000.032, 8000.048,
                8000.068, 9500, 9500, 9500.001, 9500.001, 9500.003, 9500.003,
            ])
        // `steps`: 17, 18, 19 at 9500 s and 1 and 3 ms on; `times: 5`, the clicks at those times.
        let tail = got.suffix(6).map { [$0[3] as? String ?? "", "\(($0[4] as? NSNumber)?.intValue ?? -1)"] }
        #expect(
            Set(tail.map { $0.joined(separator: " ") }) == [
                "moved 17", "moved 18", "moved 19", "haptic -1",
            ] && tail.filter { $0[0] == "haptic" }.count == 3, "\(tail)")
        // JavaScript's own rounding (0.25 is a tie: "0.3"), sign ("-0.0"), and a format it refuses.
        #expect(
            got.prefix(5).map { $0.dropFirst().first as? String } == [
                "~0.3 kg", "~-0.0 kg", "~72.5 kg", "~1.0 kg", nil,
            ])
        #expect(got.prefix(4).allSatisfy { $0[2] as? Bool == false })
    }
}
