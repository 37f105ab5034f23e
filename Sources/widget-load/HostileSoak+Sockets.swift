import ScrollCore

/// What each of the hostile phase's connections does, and how its end is judged.
extension HostileSoak {
    func established(_ n: Int) {
        guard var client = clients[n] else { return }
        client.established = now()
        switch client.role {
        case .helloLess:
            break
        case .rushed, .paced:
            let room = "\(options.tag)-\(client.role == .rushed ? "r" : "p")\(round.number)-\(n)"
            client.outgoing = [ClientMessage.hello(.init(room: room, scene: PickerScene.name)).encoded()]
            if client.role == .rushed, round.rushFirst == nil { round.rushFirst = now() }
        default:
            client.outgoing = [ClientMessage.hello(.init(room: round.room, scene: PickerScene.name)).encoded()]
        }
        clients[n] = client
        sockets.requestWrite(n)
    }

    func nextText(_ n: Int) -> String? {
        guard var client = clients[n] else { return nil }
        defer { clients[n] = client }
        let text: String
        if !client.outgoing.isEmpty {
            text = client.outgoing.removeFirst()
        } else if client.pending > 0, client.role == .burster {
            // Across the whole picker and back, in turn: an even number of them ends at tick 0.
            let wheel = outcome.sent["wheel", default: 0]
            let dx = wheel % 2 == 0 ? 100_000.0 : -100_000.0
            text = ClientMessage.wheel(.init(x: 195, y: 95, dx: dx, dy: 0, t: Double(wheel))).encoded()
            client.pending -= 1
        } else if client.pending > 0 {
            text = ClientMessage.ping(t: Double(client.pending)).encoded()
            client.pending -= 1
        } else {
            return nil
        }
        // One write per callback; after the last, the close if one is due.
        if !client.outgoing.isEmpty || client.pending > 0 || client.ending != nil { sockets.requestWrite(n) }
        outcome.sent[String(ServerText(Array(text.utf8)).type), default: 0] += 1
        return text
    }

    /// What was queued goes out first.
    func ending(_ n: Int) -> ClientSockets.Ending? {
        guard let client = clients[n], client.outgoing.isEmpty, client.pending == 0 else { return nil }
        return client.ending
    }

    func received(_ n: Int, _ bytes: UnsafeRawBufferPointer, binary: Bool, isLast: Bool) {
        guard var client = clients[n], let message = client.message.add(bytes, binary: binary, isLast: isLast) else {
            return
        }
        defer { clients[n] = client }
        guard !message.binary else { return }
        if ServerText.hasType("events", message.bytes) {
            if client.role.tallies { client.tally.add(message.bytes) }
            return
        }
        let text = ServerText(message.bytes)
        switch text.type {
        case "welcome":
            client.welcomed = true
            switch client.role {
            case .stalled:
                // A small window, as a phone's: the bursts, not the kernel, fill it (below).
                sockets.limitReceiveBuffer(n, bytes: 64 << 10)
                sockets.setReading(n, false)
            case .vanished:
                sockets.setReading(n, false)
            case .rushed, .paced:
                if client.role == .rushed { round.rushLast = now() }
                // The room moves and settles, so a server with a store keeps it.
                client.outgoing.append(ClientMessage.key(key: "ArrowRight", widget: nil, t: 1).encoded())
                client.ending = .close
                sockets.requestWrite(n)
            default:
                break
            }
        case "error":
            client.errors.append(text.code ?? "?")
            client.errorMessage = text.message ?? ""
            if client.role == .rushed { round.rushLast = now() }
        default:
            break
        }
    }

    func closeFrame(_ n: Int, code: UInt16, reason: String) {
        clients[n]?.closeCode = code
        clients[n]?.closeReason = reason
    }

    func closed(_ n: Int, error: String?) {
        guard let client = clients.removeValue(forKey: n) else { return }
        // One the soak gave up on was counted then.
        if client.ending != nil, client.role == .helloLess || client.role == .vanished { return }
        let by = closedBy(client, error: error)
        switch client.role {
        case .reader, .burster, .flooder:
            judgeReader(client, by: by)
        case .stalled:
            if client.errors == ["slow_consumer"], client.closed(1008, "slow_consumer"), round.resumed != nil {
                expect("slow_consumer: stalled reader (\(client.errorMessage))")
            } else {
                fail("stalled reader: \(by), not slow_consumer (1008) once read again")
            }
        case .vanished:
            if error == nil, client.ending == nil, client.closeCode == nil, client.errors.isEmpty,
                round.vanishedRead != nil
            {
                expect("dropped: vanished reader (no pong for \(Int(HostileRules.pongTimeout)) s)")
            } else {
                fail("vanished reader: \(by), not let go before it read again")
            }
        case .helloLess:
            judgeHelloLess(client, by: by)
        case .rushed:
            if client.ending != nil, client.errors.isEmpty, error == nil {
                round.rushMade += 1
            } else if client.errors == ["rate_limited"], client.closed(1013, "rate_limited") {
                round.rushRefused += 1
                expect("rate_limited: a new room past \(HostileRules.roomBurst) at once")
            } else {
                fail("new rooms (rush): \(by)")
            }
        case .paced:
            if client.ending == nil || !client.errors.isEmpty || error != nil {
                fail("new rooms (one every \(Int(options.pacedEvery)) s): \(by)")
            }
        }
    }

    /// How the connection ended, in words (for failures).
    private func closedBy(_ client: Client, error: String?) -> String {
        if let error { return error }
        let errors = client.errors.isEmpty ? "" : " after error \(client.errors.joined(separator: ", "))"
        if let code = client.closeCode { return "closed \(code) \(client.closeReason)\(errors)" }
        if client.ending != nil { return "closed by the soak\(errors)" }
        return client.established == nil ? "never opened" : "dropped by the server\(errors)"
    }

    /// A reader, the burster or the flooder must stay connected until the soak ends it; only the
    /// flooder may be refused, and must be (`rate_limited`, not fatal).
    private func judgeReader(_ client: Client, by: String) {
        guard client.ending != nil, client.closeCode == nil || client.closeCode == 1000 else {
            return fail("burst room: a \(client.role) was \(by)")
        }
        let refusals = client.errors.filter { $0 == "rate_limited" }.count
        if client.errors.count > refusals || (refusals > 0 && client.role != .flooder) {
            fail("burst room: error \(client.errors.joined(separator: ", ")) to a \(client.role)")
        }
        if client.role == .flooder {
            if refusals > 0 {
                expect("rate_limited: \(options.floodPings) pings at once (not fatal)", refusals)
            } else {
                fail("burst room: \(options.floodPings) pings at once were not rate-limited")
            }
        }
    }

    /// Closed `not_ready` (1008) 10 s after it opened, or refused `server_full` (1013) at once.
    private func judgeHelloLess(_ client: Client, by: String) {
        let closedAt = now()
        if client.errors == ["server_full"], client.closed(1013, "server_full") {
            round.helloLessServerFull += 1
            expect("server_full: past \(HostileRules.maxUnjoined) connections without hello")
            return
        }
        guard client.errors == ["not_ready"], client.closed(1008, "not_ready"), let opened = client.established else {
            return fail("hello-less: \(by)")
        }
        round.firstNotReady = min(round.firstNotReady ?? closedAt, closedAt)
        let seconds = closedAt - client.started
        outcome.closeSeconds["not_ready (no hello)", default: Span(seconds)].add(seconds)
        // The server's clock starts after the connect began, so the close cannot come sooner.
        if seconds < HostileRules.helloTimeout - 0.001 {
            fail("hello-less: closed not_ready after \(seconds) s, before \(Int(HostileRules.helloTimeout)) s")
        } else if closedAt - opened > HostileRules.helloTimeout + 1 + HostileRules.slack {
            fail(
                "hello-less: closed not_ready over \(Int(HostileRules.helloTimeout + 1 + HostileRules.slack)) s after opening"
            )
        } else {
            expect("not_ready: no hello within \(Int(HostileRules.helloTimeout)) s")
        }
    }
}

extension HostileSoak.Client {
    /// Whether the server's close frame had this code and reason. libwebsockets 4.1.6's client
    /// hands 1012–1015 on as 1002 (lib/roles/ws/client-parser-ws.c counts them invalid, being
    /// newer than its list), so 1013 shows here as 1002 with the reason intact; that the server
    /// sends 1013 is proven with a client of its own (`CloseCodeTests.serverFull`).
    func closed(_ code: UInt16, _ reason: String) -> Bool {
        closeReason == reason && (closeCode == code || (code == 1013 && closeCode == 1002))
    }
}
