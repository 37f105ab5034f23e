import Foundation
import Logging
import ScrollCore

#if canImport(Glibc)
    import Glibc
#endif

/// `--log-format json`: one JSON object per line, for log collectors. Its keys are stable: `time`
/// (UTC, ISO 8601 with milliseconds), `level`, `message`, then the call's metadata by its own
/// names (`client`, `room`, `code` first when present, the others after them by name). A metadata
/// key that is one of the first three is written as `metadata.<key>`.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    /// Takes each whole line, newline included.
    private let write: @Sendable (String) -> Void
    /// Unix time in seconds.
    private let wall: @Sendable () -> Double

    static let fixedKeys: Set = ["time", "level", "message"]
    static let firstKeys = ["client", "room", "code"]

    package init(write: @escaping @Sendable (String) -> Void, wall: @escaping @Sendable () -> Double = WallClock.now) {
        self.write = write
        self.wall = wall
    }

    /// Lines to stderr, each handed over whole (so lines logged from two threads never interleave).
    public static func standardError(label: String) -> JSONLogHandler {
        var handler = JSONLogHandler(write: { line in try? FileHandle.standardError.write(contentsOf: Data(line.utf8)) }
        )
        handler.metadataProvider = LoggingSystem.metadataProvider
        return handler
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let own = event.metadata { all.merge(own) { _, new in new } }
        write(Self.line(time: wall(), level: event.level, message: "\(event.message)", metadata: all))
    }

    static func line(time: Double, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var fields: [(String, JSONValue)] = [
            ("time", .string(Self.timestamp(time))), ("level", .string(level.rawValue)), ("message", .string(message)),
        ]
        let rest = metadata.keys.filter { !firstKeys.contains($0) }.sorted()
        for key in firstKeys.filter({ metadata[$0] != nil }) + rest {
            let name = fixedKeys.contains(key) ? "metadata.\(key)" : key
            fields.append((name, json(metadata[key]!)))
        }
        var out = ""
        JSONValue.object(fields).write(to: &out)
        return out + "\n"
    }

    private static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let s): .string(s)
        case .stringConvertible(let c): .string(c.description)
        case .array(let items): .array(items.map(json))
        case .dictionary(let d): .object(d.keys.sorted().map { ($0, json(d[$0]!)) })
        }
    }

    /// `2026-11-23T09:41:07.250Z`.
    static func timestamp(_ time: Double) -> String {
        var seconds = time_t(time.rounded(.down))
        var millis = Int(((time - Double(seconds)) * 1000).rounded(.down))
        if millis >= 1000 { (seconds, millis) = (seconds + 1, millis - 1000) }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}
