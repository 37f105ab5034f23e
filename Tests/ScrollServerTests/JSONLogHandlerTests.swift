import Foundation
import Logging
import Synchronization
import Testing

@testable import ScrollServer

/// `--log-format json`: one object per line, stable keys (README, "Options"; docs/OPERATIONS.md).
@Suite("JSON log lines")
struct JSONLogHandlerTests {
    /// A logger whose JSON lines are kept, at a fixed wall time.
    private final class Lines: Sendable {
        let kept = Mutex<[String]>([])
        func logger(time: Double = 1_795_000_000.25) -> Logger {
            var logger = Logger(label: "test") { _ in
                JSONLogHandler(write: { line in self.kept.withLock { $0.append(line) } }, wall: { time })
            }
            logger.logLevel = .debug
            return logger
        }
        var objects: [[String: Any]] {
            kept.withLock { $0 }.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        }
    }

    @Test(
        "time (UTC, ms), level, message, then client, room, code, then the other metadata by name: one line, newline-ended"
    )
    func keysInOrder() {
        let lines = Lines()
        lines.logger().info(
            "joined", metadata: ["scene": "ruler", "room": "lobby", "client": "c7", "code": "bad_json", "a": "1"])
        #expect(
            lines.kept.withLock { $0 } == [
                #"{"time":"2026-11-18T11:06:40.250Z","level":"info","message":"joined","client":"c7","room":"lobby","code":"bad_json","a":"1","scene":"ruler"}"#
                    + "\n"
            ])
    }

    @Test("a line without metadata has the three keys only; each level by its swift-log name")
    func levels() {
        let lines = Lines()
        let logger = lines.logger()
        logger.debug("d")
        logger.warning("w")
        logger.critical("c")
        #expect(lines.objects.map { $0["level"] as? String } == ["debug", "warning", "critical"])
        #expect(lines.objects.allSatisfy { Set($0.keys) == ["time", "level", "message"] })
    }

    @Test("quotes, backslashes, newlines and control characters in messages and values stay one valid line")
    func escaping() {
        let lines = Lines()
        lines.logger().error("a \"b\" \\ c\nd\u{1}", metadata: ["path": "/x\ty"])
        #expect(lines.kept.withLock { $0.first?.filter { $0 == "\n" }.count } == 1)
        #expect(lines.objects.first?["message"] as? String == "a \"b\" \\ c\nd\u{1}")
        #expect(lines.objects.first?["path"] as? String == "/x\ty")
    }

    @Test("nested metadata is JSON too; a key named like a fixed one is written as metadata.<key>")
    func nestedAndClashing() {
        let lines = Lines()
        var logger = lines.logger()
        logger[metadataKey: "server"] = "w1"
        logger.info(
            "m", metadata: ["list": ["1", "2"], "map": ["k": "v"], "message": "mine", "count": .stringConvertible(3)])
        let o = lines.objects.first ?? [:]
        #expect(o["message"] as? String == "m")
        #expect(o["metadata.message"] as? String == "mine")
        #expect(o["list"] as? [String] == ["1", "2"])
        #expect(o["map"] as? [String: String] == ["k": "v"])
        #expect(o["count"] as? String == "3")
        #expect(o["server"] as? String == "w1", "the logger's own metadata")
    }

    @Test("the time is UTC to the millisecond, never rounded up into the next second")
    func timestamps() {
        #expect(JSONLogHandler.timestamp(0) == "1970-01-01T00:00:00.000Z")
        #expect(JSONLogHandler.timestamp(1_795_000_000.0999) == "2026-11-18T11:06:40.099Z")
        #expect(JSONLogHandler.timestamp(951_782_399.9999) == "2000-02-28T23:59:59.999Z")
    }
}
