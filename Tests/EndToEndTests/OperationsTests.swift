import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// `/metrics`, `/healthz`, `/readyz` and `--log-format json` on the real server (docs/OPERATIONS.md).
@Suite struct OperationsTests {
    /// `/metrics` read from `port` (the public one unless given).
    private func scrape(_ server: ServerProcess, port: Int? = nil) throws -> MetricsText {
        let reply = try RawHTTP.request(port: port ?? server.port, "/metrics")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        return MetricsText(reply.text)
    }

    /// A pointer message on the ruler, once the server has shown it (its `applied` came back).
    private func pointer(_ c: WireClient, _ phase: PointerPhase, x: Double, t: Double) throws {
        try c.pointer(phase, x: x, t: t)
        _ = try c.waitFor("applied \(t)") { $0["type"] as? String == "applied" && $0["t"] as? Double == t }
    }

    @Test(
        "scraped during a drag: frames rendered and sent, bytes, pointer messages and input-to-frame samples grow with it, 5 moves → 5 of each"
    )
    func metricsDuringDrag() throws {
        let server = try ServerProcess()
        let c = try WireClient(server, room: "m", scene: "ruler")
        try pointer(c, .down, x: 300, t: 1000)
        let before = try scrape(server)
        for i in 1...5 { try pointer(c, .move, x: 300 - 12 * Double(i), t: 1000 + 16 * Double(i)) }
        let during = try scrape(server)
        try pointer(c, .up, x: 240, t: 1200)
        let after = try scrape(server)

        func grew(_ series: String, by expected: Double? = nil) {
            let (a, b) = (before[series] ?? -1, during[series] ?? -1)
            #expect(a >= 0 && b > a, "\(series): \(a) → \(b)")
            if let expected { #expect(b - a == expected, "\(series): \(a) → \(b)") }
            #expect((after[series] ?? -1) >= b, "\(series) never goes down")
        }
        grew("widget_messages_received_total{type=\"pointer\"}", by: 5)
        grew("widget_input_to_frame_seconds_count", by: 5)
        grew("widget_frames_rendered_total")
        grew("widget_frames_sent_total")
        grew("widget_bytes_sent_total")
        #expect(before["widget_messages_received_total{type=\"hello\"}"] == 1)
        #expect(during["widget_clients"] == 1)
        #expect(during["widget_rooms{state=\"active\"}"] == 1)
        // One client: every frame written is the room's, and at least one frame per move shown.
        let sent = (during["widget_frames_sent_total"] ?? 0) - (before["widget_frames_sent_total"] ?? 0)
        #expect(sent >= 5)
        // On loopback, the frame showing an input goes out within a second.
        #expect(
            during["widget_input_to_frame_seconds_bucket{le=\"1.0\"}"] == during["widget_input_to_frame_seconds_count"])
    }

    @Test(
        "/healthz and /readyz are 200 ok while serving, other methods 405; after SIGTERM, while a stuck client holds the stop up, /readyz is 503 stopping"
    )
    func healthAndReadiness() throws {
        let server = try ServerProcess()
        for path in ["/healthz", "/readyz"] {
            let reply = try RawHTTP.request(server, path)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.text == "ok\n", "\(path)")
            #expect(reply.headers["cache-control"] == "no-store")
            #expect(try RawHTTP.request(server, path, method: "HEAD").status == 200)
            #expect(try RawHTTP.request(server, path, method: "POST").status == 405)
        }
        // Its close cannot be written: the server serves on for up to its 1 s grace.
        let stuck = try CloseCodeTests.stuckClient(of: server)
        server.send(signal: SIGTERM)
        var answer: RawHTTP.Reply?
        let deadline = Date().addingTimeInterval(3)
        while answer == nil, Date() < deadline, !server.hasExited {
            answer = try? RawHTTP.request(server, "/readyz")
            if answer?.status != 503 { answer = nil }
        }
        #expect(answer?.text == "not ready: stopping\n")
        // How soon it exits (the 1 s grace) is CloseCodeTests' business ("SIGTERM and SIGINT"); here, with
        // a stuck client, it depends on the machine's load as much as on the server.
        _ = stuck
    }

    @Test(
        "--metrics-port: /metrics, /healthz and /readyz on their own listener (nothing else, no WebSocket); the public port answers 404 for /metrics"
    )
    func metricsListener() throws {
        let server = try ServerProcess(arguments: ["--metrics-port", "0", "--metrics-host", "127.0.0.1"])
        let prefix = "metrics on http://127.0.0.1:"
        let line = try #require(server.output.split(separator: "\n").first { $0.hasPrefix(prefix) })
        let port = try #require(Int(line.dropFirst(prefix.count).prefix { $0.isNumber }))
        #expect(line.hasSuffix("/metrics"))
        #expect(port != server.port)

        #expect(try RawHTTP.request(server, "/metrics").status == 404)
        #expect(try RawHTTP.request(server, "/").status == 200, "the page stays")
        #expect(try RawHTTP.request(server, "/healthz").status == 200)
        let c = try WireClient(server)
        #expect(try withExtendedLifetime(c) { try scrape(server, port: port)["widget_clients"] } == 1)
        for path in ["/healthz", "/readyz"] { #expect(try RawHTTP.request(port: port, path).status == 200) }
        for path in ["/", "/index.html", "/js/app.js"] { #expect(try RawHTTP.request(port: port, path).status == 404) }
        let upgrade = try RawHTTP.upgrade(server, port: port, origin: nil, protocols: ProtocolVersion.subprotocol)
        #expect(upgrade.status == 404)
    }

    @Test("--metrics-port on a port in use: the server exits at start naming it")
    func metricsPortInUse() throws {
        let other = try ServerProcess()
        let child = try ChildProcess(
            executable: ServerProcess.binaryPath(),
            arguments: ["--port", "0", "--state", "none", "--metrics-port", String(other.port)])
        #expect(child.waitForExit(timeout: 10))
        #expect(child.exitCode != 0)
        #expect(child.output.waitForLine(timeout: 5) { $0.contains("--metrics-port") } != nil, "\(child.output.text)")
    }

    @Test(
        "--log-format json: a session (join, drag, a bad message, SIGTERM) logs only JSON lines, each with time, level and message; client, room and code where the log has them"
    )
    func jsonLog() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        // The server's stderr alone goes to the file (its stdout, the listening line, is not a log).
        let server = try ServerProcess(
            arguments: ["--log-format", "json", "--log-level", "debug"],
            launcher: ["/bin/sh", "-c", "exec \"$@\" 2>'\(log.path)'", "sh"])
        let c = try WireClient(server, room: "logged", scene: "ruler")
        try c.drag(from: 300, by: -60)
        try c.socket.send(text: "{")
        _ = try c.waitFor("error") { $0["type"] as? String == "error" }
        server.stop()
        #expect(server.exit == .code(0))

        let lines = try String(contentsOf: log, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "every line ends with a newline")
        var objects: [[String: Any]] = []
        for line in lines.dropLast() {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)")
            guard let object else { continue }
            #expect(object["time"] is String && object["level"] is String && object["message"] is String, "\(line)")
            #expect((object["time"] as? String)?.hasSuffix("Z") == true)
            objects.append(object)
        }
        func has(_ message: String, _ fields: [String: String]) -> Bool {
            objects.contains { o in
                o["message"] as? String == message && fields.allSatisfy { o[$0.key] as? String == $0.value }
            }
        }
        #expect(has("joined", ["client": c.id, "room": "logged", "scene": "ruler", "level": "info"]))
        #expect(has("refused", ["client": c.id, "code": "bad_json", "level": "debug"]))
        #expect(has("stopped", ["level": "info"]))
        // libwebsockets' own lines come through swift-log too.
        #expect(objects.contains { ($0["message"] as? String)?.hasPrefix("LWS: ") == true })
    }
}
