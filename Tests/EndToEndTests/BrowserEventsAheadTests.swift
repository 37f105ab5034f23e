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
                  const v = (t, widget, value) => ({ t: [t], widget, type: 'value', value: [value] });
                  const out = [a.next];
                  // Runs: t an array, a field an array (one per event) or one value for all.
                  a.add([{ t: [1.2, 1.0], widget: 'ruler', type: 'value', value: [3, 1] }, v(1.1, 'dial', 9),
                         { t: 'x' }, null, { t: [NaN], widget: 'dial', value: 0 }]);
                  a.add([{ t: [1.0], widget: 'dial', type: 'value', value: 8 }, v(1.3, 'ruler', 4)]);
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
}
