import Foundation
import ScrollCore

/// One soak client's input, over and over: the traces in turn from its own first one, each
/// at its recorded pace (scene time), with a pause between them in which the mouse hovers
/// across the scene and leaves it; a ping after each trace and a theme and motion change
/// after each round. Times are ms on the soak's clock; `t` on the wire never goes back on
/// one connection (a trace's clients share it).
struct TracePlayer {
    enum Step: Equatable {
        case send(String)
        /// The trace's client leaves: the connection closes, and a new one carries on.
        case leave
    }

    static let pause = 600.0
    static let hoverEvery = 40.0

    private let traces: [SoakTrace]
    private let first: Int
    private(set) var current: Int
    private var line = 0
    /// When the current trace's first line is due.
    private var start: Double
    private var nextHover: Double
    private var hovers = 0
    private var pausedAt: Double?
    private var lastT = 0.0
    private var rounds = 0
    private(set) var played = 0

    init(traces: [SoakTrace], first: Int, now: Double) {
        self.traces = traces
        self.first = first % traces.count
        current = self.first
        start = now + Self.pause
        nextHover = now
    }

    /// Everything due by `now`, in order; a leave comes last (nothing more until `resume`).
    mutating func due(now: Double) -> [Step] {
        guard pausedAt == nil else { return [] }
        var steps: [Step] = []
        while nextHover <= now, nextHover < start {
            let last = nextHover + Self.hoverEvery >= start
            let message = last ? ClientMessage.hover(at: nil, t: stamp(nextHover)) : hover(at: nextHover)
            steps.append(.send(message.encoded()))
            nextHover += Self.hoverEvery
        }
        let trace = traces[current]
        while line < trace.entries.count {
            let entry = trace.entries[line]
            guard start + entry.sceneTime - trace.sceneOrigin <= now else { return steps }
            line += 1
            if entry.type == .leave {
                steps.append(.leave)
                return steps
            }
            var sent = entry
            sent.t = stamp(start + entry.t - trace.tOrigin)
            if let message = sent.clientMessage { steps.append(.send(message.encoded())) }
        }
        // The trace is over: a ping, then the pause before the next one.
        played += 1
        steps.append(.send(ClientMessage.ping(t: stamp(now)).encoded()))
        line = 0
        current = (current + 1) % traces.count
        if current == first {
            rounds += 1
            steps.append(
                .send(
                    ClientMessage.preferences(theme: rounds % 2 == 1 ? "dark" : "light", reducedMotion: rounds % 4 >= 2)
                        .encoded())
            )
        }
        nextHover = now
        start = now + Self.pause
        return steps
    }

    /// The connection is gone: the timeline stops until `resume`.
    mutating func pause(now: Double) {
        if pausedAt == nil { pausedAt = now }
    }

    /// A new connection has joined: the timeline goes on where it stopped.
    mutating func resume(now: Double) {
        guard let pausedAt else { return }
        start += now - pausedAt
        nextHover += now - pausedAt
        self.pausedAt = nil
    }

    private mutating func stamp(_ t: Double) -> Double {
        lastT = max(lastT, t)
        return lastT
    }

    /// A Lissajous path over the 390 × 844 pt demo scene.
    private mutating func hover(at time: Double) -> ClientMessage {
        hovers += 1
        let k = Double(hovers)
        let x = 195 + 180 * sin(k * 0.13), y = 422 + 400 * sin(k * 0.07)
        return .hover(at: Point(x: (x * 4).rounded() / 4, y: (y * 4).rounded() / 4), t: stamp(time))
    }
}
