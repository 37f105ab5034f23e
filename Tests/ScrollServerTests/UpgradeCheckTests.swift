import Testing

@testable import ScrollServer

// docs/PROTOCOL.md, "Handshake": who may open a WebSocket, and with which subprotocol.

@Suite("Upgrade check: origins")
struct OriginPolicyTests {
    let own = OriginPolicy(allowing: [])

    @Test("a page of the server's own origin (http:// + Host) may connect; case and default port do not matter")
    func ownOrigin() {
        #expect(own.allows(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(own.allows(origin: "HTTP://Widgets.Example:8080", host: "widgets.example:8080"))
        #expect(own.allows(origin: "http://widgets.example", host: "widgets.example:80"))
        #expect(own.allows(origin: "http://widgets.example:80", host: "widgets.example"))
        #expect(own.allows(origin: "http://[::1]:8080", host: "[::1]:8080"))
    }

    @Test("another site, another port, another scheme, or null is refused")
    func foreign() {
        #expect(!own.allows(origin: "http://evil.example", host: "127.0.0.1:8080"))
        #expect(!own.allows(origin: "http://127.0.0.1:9090", host: "127.0.0.1:8080"))
        #expect(!own.allows(origin: "https://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(!own.allows(origin: "null", host: "127.0.0.1:8080"))
        #expect(!own.allows(origin: "", host: "127.0.0.1:8080"))
        #expect(!own.allows(origin: "http://127.0.0.1:8080.evil.example", host: "127.0.0.1:8080"))
        #expect(!own.allows(origin: "http://127.0.0.1:8080", host: nil))
    }

    @Test("no Origin header: not a browser, accepted (as Gorilla WebSocket does)")
    func noOrigin() {
        #expect(own.allows(origin: nil, host: "127.0.0.1:8080"))
        #expect(own.allows(origin: nil, host: nil))
    }

    @Test("--allow-origin admits exactly the origins named, normalised the same way")
    func allowed() {
        let policy = OriginPolicy(allowing: ["https://App.Example", "http://localhost:3000"])
        #expect(policy.allows(origin: "https://app.example", host: "127.0.0.1:8080"))
        #expect(policy.allows(origin: "https://app.example:443", host: "127.0.0.1:8080"))
        #expect(policy.allows(origin: "http://localhost:3000", host: "127.0.0.1:8080"))
        #expect(!policy.allows(origin: "http://app.example", host: "127.0.0.1:8080"))
        #expect(!policy.allows(origin: "http://localhost:3001", host: "127.0.0.1:8080"))
        #expect(policy.allows(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080"), "its own origin still")
    }

    @Test("--allow-origin '*' admits any origin")
    func any() {
        let policy = OriginPolicy(allowing: ["*"])
        #expect(policy.allows(origin: "http://evil.example", host: "127.0.0.1:8080"))
        #expect(policy.allows(origin: "null", host: nil))
    }

    @Test(
        "--allow-origin takes scheme://host[:port] or *; anything else is named as a problem",
        arguments: [
            ("https://example.com", true), ("http://localhost:3000", true), ("http://[::1]:8080", true), ("*", true),
            ("example.com", false), ("https://example.com/", false), ("https://example.com/app", false),
            ("https://user@example.com", false), ("https://example.com:99999", false), ("https://", false),
            ("null", false), ("https://example.com:", false),
        ])
    func values(value: String, valid: Bool) {
        let problem = OriginPolicy.problem(value)
        #expect((problem == nil) == valid, "\(value): \(problem ?? "accepted")")
        if let problem { #expect(problem.contains("scheme://host[:port]")) }
    }
}

@Suite("Upgrade check: verdicts")
struct UpgradeVerdictTests {
    let check = UpgradeCheck(
        hosts: HostPolicy(names: []), origins: OriginPolicy(allowing: []), subprotocol: "scroll-widgets")

    @Test("a Host that is not one of the server's names (DNS rebinding): 403 naming it and --server-name, first")
    func rebindingHost() {
        let verdict = check.verdict(
            origin: "http://evil.example:8080", host: "evil.example:8080", protocols: "scroll-widgets")
        guard case .refuse(let status, let message) = verdict else { return #expect(Bool(false), "\(verdict)") }
        #expect(status == 403)
        #expect(message.contains("evil.example:8080") && message.contains("--server-name"), "\(message)")
        #expect(check.verdict(origin: nil, host: nil, protocols: "scroll-widgets") != .accept, "no Host at all")
    }

    @Test("the subprotocol offered, alone or among others: accepted")
    func accepted() {
        #expect(check.verdict(origin: nil, host: "localhost:1", protocols: "scroll-widgets") == .accept)
        #expect(
            check.verdict(origin: "http://localhost:1", host: "localhost:1", protocols: "chat, scroll-widgets")
                == .accept)
        #expect(check.verdict(origin: nil, host: "127.0.0.1", protocols: "a,scroll-widgets,b") == .accept)
    }

    @Test("no subprotocol, or only unknown ones: 400 naming scroll-widgets")
    func subprotocol() {
        for protocols in [nil, "", "chat", "Scroll-Widgets", "scroll-widgets-v2, chat"] as [String?] {
            guard
                case .refuse(let status, let message) = check.verdict(
                    origin: nil, host: "localhost:1", protocols: protocols)
            else {
                Issue.record("accepted \(protocols ?? "nil")")
                continue
            }
            #expect(status == 400)
            #expect(message.contains("Sec-WebSocket-Protocol: scroll-widgets"))
        }
    }

    @Test("a foreign origin: 403 naming it and --allow-origin, before the subprotocol is looked at")
    func origin() {
        let verdict = check.verdict(origin: "http://evil.example", host: "localhost:1", protocols: nil)
        guard case .refuse(let status, let message) = verdict else {
            Issue.record("accepted")
            return
        }
        #expect(status == 403)
        #expect(message.contains("http://evil.example") && message.contains("--allow-origin"))
    }

    @Test("a header quoted in a refusal is printable ASCII, at most 200 characters")
    func quoting() {
        let verdict = check.verdict(
            origin: "http://e\u{1}vil" + String(repeating: "x", count: 500), host: "localhost", protocols: nil)
        guard case .refuse(_, let message) = verdict else {
            Issue.record("accepted")
            return
        }
        #expect(message.contains("http://e?vil"))
        #expect(message.count < 400)
    }
}

@Suite("Host names a WebSocket may be addressed to")
struct HostPolicyTests {
    @Test("loopback names and addresses are always the server's, with any port and in any case")
    func loopback() {
        let policy = HostPolicy(names: [])
        for host in ["localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:9", "[::1]", "[::1]:8080"] {
            #expect(policy.allows(host: host), "\(host)")
        }
        for host in ["evil.example", "127.0.0.2", "localhost.evil.example", "[::2]", "", "[]"] {
            #expect(!policy.allows(host: host), "\(host)")
        }
    }

    @Test("--server-name, the bound address and allowed origins' hosts add names; * takes any")
    func named() {
        var config = ServerConfig(publicDirectory: "/nonexistent")
        config.host = "192.0.2.7"
        config.extraServerNames = ["Widgets.Example"]
        config.allowedOrigins = ["https://app.example:8443"]
        let policy = HostPolicy(names: config.serverNames)
        for host in ["widgets.example", "widgets.example:443", "192.0.2.7:8080", "app.example", "localhost"] {
            #expect(policy.allows(host: host), "\(host)")
        }
        #expect(!policy.allows(host: "evil.example"))
        config.allowedOrigins = ["*"]
        #expect(HostPolicy(names: config.serverNames).allows(host: "evil.example"))
    }

    @Test("bound to every address, every interface's address is a name: loopback's 127.0.0.1 among them")
    func wildcard() {
        var config = ServerConfig(publicDirectory: "/nonexistent")
        config.host = "0.0.0.0"
        #expect(config.serverNames.contains("127.0.0.1"))
        #expect(!config.serverNames.contains("0.0.0.0"))
    }
}
