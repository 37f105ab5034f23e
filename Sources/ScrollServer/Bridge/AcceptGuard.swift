import CLibWebSockets
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps accepting connections from taking the descriptors files need, and from spinning when
/// descriptors run out (docs/RELIABILITY.md, "Descriptors"). Service thread only.
///
/// lws 4.1.6 stops polling its listener only when its own table of sockets is full; accept(2)
/// failing with EMFILE leaves the connection pending, logs "accept: errno 24" and returns, so the
/// next service loop finds the listener readable again: 100 % of a core and a line per loop. Two
/// guards, both pausing the listener (its POLLIN off through `lws_rx_flow_control`; lws's own
/// modulation turns it back on when a socket closes) for `pause` while pending connections wait in
/// the kernel's backlog:
/// - a connection accepted on a descriptor at or above the ceiling is closed at once
///   (LWS_CALLBACK_FILTER_NETWORK_CONNECTION, which also names the listener), so sockets never
///   take the reserve (`DescriptorBudget`) and accept does not reach EMFILE;
/// - should it still (the limit lowered from outside, descriptors leaked), lws's line is taken by
///   the log route (`LWSLogging.acceptFailure`) and the service loop pauses the same way.
/// Either is logged at most once a second, with the count refused meanwhile.
final class AcceptGuard {
    /// How long accepting stays paused after a refusal or a failed accept.
    static let pause = 1.0

    private let ceiling: Int32?
    private let logger: Logger
    private var context: OpaquePointer?
    /// The listening socket's wsi, learnt from the first connection it accepts.
    private var listener: OpaquePointer?
    private var timer: UnsafeMutablePointer<rs_timer>?
    private var refused = 0
    private var lines = RepeatedLines()

    init(ceiling: Int?, logger: Logger) {
        self.ceiling = ceiling.map { Int32(clamping: $0) }
        self.logger = logger
    }

    func attach(_ context: OpaquePointer) {
        self.context = context
        timer = rs_timer_new(Unmanaged.passUnretained(self).toOpaque())
    }

    func detach() {
        if let timer { rs_timer_cancel(timer); free(timer) }
        timer = nil
        context = nil
    }

    /// LWS_CALLBACK_FILTER_NETWORK_CONNECTION from `listener` for the connection on `fd`: 0 keeps
    /// it, 1 has lws close it.
    func admit(_ fd: Int32, from listener: OpaquePointer) -> Int32 {
        self.listener = listener
        guard let ceiling, fd >= ceiling else { return 0 }
        refused += 1
        pauseAccepting("connections refused at the descriptor limit", ["ceiling": "\(ceiling)"])
        return 1
    }

    /// After each service: lws failed to accept for want of descriptors.
    func checkFailedAccept() {
        let code = LWSLogging.acceptFailure.exchange(0, ordering: .relaxed)
        guard code != 0 else { return }
        pauseAccepting("accept failed: out of descriptors", ["errno": "\(code) \(String(cString: strerror(code)))"])
    }

    private func pauseAccepting(_ message: String, _ metadata: Logger.Metadata) {
        guard let context, let listener, let timer else { return }
        lws_rx_flow_control(listener, 0)
        rs_timer_schedule(context, timer, resumeCallback, Int64(Self.pause * 1e6))
        guard lines.admit(message, now: MonotonicClock.now()) != nil else { return }
        var metadata = metadata
        metadata["paused for"] = "\(Self.pause) s"
        if refused > 0 { metadata["refused"] = "\(refused)" }
        refused = 0
        logger.warning("\(message)", metadata: metadata)
    }

    fileprivate func resume() {
        if let listener { lws_rx_flow_control(listener, 1) }
    }
}

private func resumeCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = rs_timer_owner(sul) else { return }
    Unmanaged<AcceptGuard>.fromOpaque(owner).takeUnretainedValue().resume()
}
