import Foundation
import Testing

/// Public/js/room-clock.js (docs/PROTOCOL.md, "Tracks": time base): the room's time is each
/// frame's room time less its arrival, at its largest over 20 s, so as late as the fastest frame.
@Suite(.serialized) struct BrowserRoomClockTests {
    @Test("the largest room time − arrival over 20 s; a value that is not a time is ignored; reset forgets")
    func roomClock() throws {
        let got = try #require(
            Chromium.evaluateOnPage(
                """
                (async () => {
                  const { RoomClock } = await import('/js/room-clock.js');
                  const c = new RoomClock();
                  const out = [c.now(1000)];
                  c.frameArrived(5.0, 1000);   // lead 4,000 ms
                  c.frameArrived(5.1, 1150);   // lead 3,950 ms: it came 50 ms later than the fastest
                  out.push(c.now(2000));       // 2,000 + 4,000 ms
                  c.frameArrived(NaN, 1200);   // not a time: ignored
                  c.frameArrived(26.0, 22000); // lead 4,000 ms; the first two are now over 20 s old
                  c.frameArrived(26.5, 22600); // lead 3,900 ms
                  out.push(c.now(23000));
                  c.reset();
                  out.push(c.now(23000));
                  c.frameArrived(0.25, 30000); // a room made again: its time starts near 0
                  out.push(c.now(30100));
                  return out;
                })()
                """) as? [Any])
        let numbers = got.map { ($0 as? NSNumber)?.doubleValue }
        #expect(numbers.count == 5 && numbers[0] == nil && numbers[3] == nil, "\(got)")
        #expect(numbers[1] == 6.0 && numbers[2] == 27.0, "\(got)")
        #expect(abs((numbers[4] ?? 0) - 0.35) < 1e-9, "\(got)")
    }
}
