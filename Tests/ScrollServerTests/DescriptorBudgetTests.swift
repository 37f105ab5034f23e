import Testing

@testable import ScrollServer

/// The descriptor rule (README, `--max-clients`; docs/RELIABILITY.md, "Descriptors"): 32 kept for
/// files (plus one per room with --record), 64 for sockets that are not clients, the soft limit
/// raised only as far as that needs and never past the hard one.
@Suite("Descriptor budget")
struct DescriptorBudgetTests {
    @Test("the usual soft limit of 1,024 under a high hard one: raised to 4,096 clients + 64 + 32 = 4,192")
    func raisedAsFarAsNeeded() throws {
        let b = try DescriptorBudget.plan(
            soft: 1024, hard: 1_048_576, maxClients: 4096, maxRooms: 256, recording: false)
        #expect(b == DescriptorBudget(limit: 4192, reserve: 32, maxClients: 4096))
        #expect(b.socketCeiling == 4160)
    }

    @Test("a hard limit of 1,024: --max-clients 4096 is capped to 1,024 − 32 − 64 = 928")
    func capped() throws {
        let b = try DescriptorBudget.plan(soft: 1024, hard: 1024, maxClients: 4096, maxRooms: 256, recording: false)
        #expect(b == DescriptorBudget(limit: 1024, reserve: 32, maxClients: 928))
        #expect(b.socketCeiling == 992)
    }

    @Test("with --record each room of --max-rooms may hold a trace file: 1,024 − (32 + 256) − 64 = 672 clients")
    func recording() throws {
        let b = try DescriptorBudget.plan(soft: 1024, hard: 1024, maxClients: 4096, maxRooms: 256, recording: true)
        #expect(b == DescriptorBudget(limit: 1024, reserve: 288, maxClients: 672))
        #expect(b.socketCeiling == 736)
    }

    @Test("a soft limit above the need is kept, never lowered; fewer clients asked for are not raised")
    func kept() throws {
        let b = try DescriptorBudget.plan(soft: 20000, hard: 20000, maxClients: 10, maxRooms: 256, recording: false)
        #expect(b == DescriptorBudget(limit: 20000, reserve: 32, maxClients: 10))
    }

    @Test("a limit that leaves no client refuses to start, naming ulimit -n and what is needed (32 + 64 + 1)")
    func tooLow() {
        #expect {
            try DescriptorBudget.plan(soft: 64, hard: 96, maxClients: 4096, maxRooms: 8, recording: false)
        } throws: { error in
            "\(error)".contains("the descriptor limit (ulimit -n) is 96: the server needs at least 97")
        }
        let one = try? DescriptorBudget.plan(soft: 97, hard: 97, maxClients: 4096, maxRooms: 8, recording: false)
        #expect(one?.maxClients == 1)
    }
}

/// lws repeats some lines on every service loop; the log gets one a second.
@Suite("Repeated log lines")
struct RepeatedLinesTests {
    @Test("the same line within 1 s is held back; the next logged says how many were")
    func held() {
        var lines = RepeatedLines(interval: 1)
        #expect(lines.admit("accept: errno 24", now: 10) == 0)
        for i in 1...999 { #expect(lines.admit("accept: errno 24", now: 10 + Double(i) / 1000) == nil) }
        #expect(lines.admit("accept: errno 24", now: 11) == 999)
        #expect(lines.admit("accept: errno 24", now: 11.5) == nil)
        #expect(
            lines.admit("another line", now: 11.6) == 1,
            "a different line is logged at once, with the repeats before it")
        #expect(lines.admit("accept: errno 24", now: 11.7) == 0)
    }
}
