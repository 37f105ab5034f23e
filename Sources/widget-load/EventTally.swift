import Glibc

/// What a soak reader counts in a room's `events` messages (docs/PROTOCOL.md, `events`): the
/// clicks (a `haptic` stands for its `count` of them, else one), the `moved` events and the
/// newest tick, the newest event time, and the messages that went past the budget of 32
/// `moved` and 32 `haptic` per widget. Read from the bytes as the server writes them (ScrollCore's
/// `SceneEvent.json`: `{"t":…,"widget":…,"type":…` first, `count` last; no string holds a raw
/// quote or brace), with the C library's searches, so that even a debug build keeps up with
/// megabytes of events a second.
struct EventTally {
    static let budget = 32

    private(set) var messages = 0
    private(set) var largestMessage = 0
    private(set) var clicks = 0
    private(set) var moved = 0
    /// The newest tick: the value of the last `moved`.
    private(set) var lastMoved: Int?
    /// The newest event's time (scene seconds).
    private(set) var latestTime: Double?
    /// Messages with more than `budget` `moved` or `haptic` events for one widget.
    private(set) var overBudget = 0

    /// One whole `events` message.
    mutating func add(_ message: [UInt8]) {
        messages += 1
        largestMessage = max(largestMessage, message.count)
        message.withUnsafeBytes { add(UnsafeRawBufferPointer($0)) }
    }

    private struct WidgetCount {
        let name: UnsafeRawBufferPointer
        var moved = 0
        var haptic = 0
    }

    private mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let end = base + bytes.count
        var widgets: [WidgetCount] = []
        var at = base
        while let object = Self.find("{\"t\":", from: at, to: end) {
            let fields = object + 5
            guard let close = memchr(fields, Int32(UInt8(ascii: "}")), end - fields).map(UnsafeRawPointer.init)
            else { break }
            at = close
            if let t = Self.number(at: fields, to: close) { latestTime = max(latestTime ?? t, t) }
            guard let widget = Self.string(after: "\"widget\":\"", from: fields, to: close),
                let type = Self.string(after: "\"type\":\"", from: fields, to: close)
            else { continue }
            var index = widgets.firstIndex { Self.equals($0.name, widget) }
            if index == nil {
                widgets.append(WidgetCount(name: widget))
                index = widgets.count - 1
            }
            if Self.equals(type, "moved") {
                moved += 1
                widgets[index!].moved += 1
                if let value = Self.number(after: "\"value\":", from: fields, to: close) { lastMoved = Int(value) }
            } else if Self.equals(type, "haptic") {
                widgets[index!].haptic += 1
                clicks += Self.number(after: "\"count\":", from: fields, to: close).map { Int($0) } ?? 1
            }
        }
        if widgets.contains(where: { $0.moved > Self.budget || $0.haptic > Self.budget }) { overBudget += 1 }
    }

    private static func find(_ pattern: StaticString, from: UnsafeRawPointer, to end: UnsafeRawPointer)
        -> UnsafeRawPointer?
    {
        // memchr for the first byte, memcmp for the rest (glibc's memmem is not in Swift's Glibc).
        let count = pattern.utf8CodeUnitCount
        var at = from
        while end - at >= count, let hit = memchr(at, Int32(pattern.utf8Start.pointee), end - at - count + 1) {
            if memcmp(hit, pattern.utf8Start, count) == 0 { return UnsafeRawPointer(hit) }
            at = UnsafeRawPointer(hit) + 1
        }
        return nil
    }

    /// The number at `start` (it ends at a comma or the brace at `end`).
    private static func number(at start: UnsafeRawPointer, to end: UnsafeRawPointer) -> Double? {
        var stop: UnsafeMutablePointer<CChar>?
        let value = strtod(start.assumingMemoryBound(to: CChar.self), &stop)
        guard let stop, UnsafeRawPointer(stop) > start, UnsafeRawPointer(stop) <= end else { return nil }
        return value
    }

    private static func number(after key: StaticString, from: UnsafeRawPointer, to end: UnsafeRawPointer) -> Double? {
        find(key, from: from, to: end).flatMap { number(at: $0 + key.utf8CodeUnitCount, to: end) }
    }

    /// The string value after `key` (which ends with its opening quote).
    private static func string(after key: StaticString, from: UnsafeRawPointer, to end: UnsafeRawPointer)
        -> UnsafeRawBufferPointer?
    {
        guard let at = find(key, from: from, to: end) else { return nil }
        let start = at + key.utf8CodeUnitCount
        guard let quote = memchr(start, Int32(UInt8(ascii: "\"")), end - start) else { return nil }
        return UnsafeRawBufferPointer(start: start, count: UnsafeRawPointer(quote) - start)
    }

    private static func equals(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        equals(bytes, UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    private static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }
}
