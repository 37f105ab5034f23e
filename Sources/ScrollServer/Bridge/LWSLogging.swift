import CLibWebSockets
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// libwebsockets logs through a C function with no context pointer, so its
/// destination is process-wide; it is set once, before the context exists.
nonisolated(unsafe) private var lwsLogger = Logger(label: "libwebsockets")
/// lws logs from the service thread (and from the thread making the context, before it runs).
nonisolated(unsafe) private var repeated = RepeatedLines()

enum LWSLogging {
    /// lws's line when accept(2) fails for want of descriptors (EMFILE, ENFILE): it leaves the
    /// connection pending and tries again on its next service loop, so the line would repeat at
    /// the speed of the loop. It is not logged as it comes: `AcceptGuard` says it, once a second.
    static let outOfDescriptors: [String: Int32] = ["accept: errno 24": EMFILE, "accept: errno 23": ENFILE]
    /// The errno of the last accept that failed so (0: none since taken); the service loop takes it.
    static let acceptFailure = Atomic<Int32>(0)

    static func route(to logger: Logger) {
        lwsLogger = logger
        var mask = Int32(LLL_ERR | LLL_WARN)
        if logger.logLevel <= .info { mask |= Int32(LLL_NOTICE) }
        if logger.logLevel <= .debug { mask |= Int32(LLL_INFO) }
        lws_set_log_level(mask) { level, line in
            guard let line else { return }
            var text = String(cString: line)
            while text.last == "\n" || text.last == "\r" { text.removeLast() }
            // lws prefixes a timestamp and level tag; swift-log adds its own.
            if let close = text.firstIndex(of: "]") {
                text = String(text[text.index(after: close)...].drop { $0 == " " })
            }
            if let code = LWSLogging.outOfDescriptors[text] {
                LWSLogging.acceptFailure.store(code, ordering: .relaxed)
                return
            }
            guard let held = repeated.admit(text, now: MonotonicClock.now()) else { return }
            let metadata: Logger.Metadata? = held > 0 ? ["repeats held back": "\(held)"] : nil
            switch Int32(level) {
            case Int32(LLL_ERR): lwsLogger.error("\(text)", metadata: metadata)
            case Int32(LLL_WARN): lwsLogger.warning("\(text)", metadata: metadata)
            case Int32(LLL_NOTICE): lwsLogger.info("\(text)", metadata: metadata)
            default: lwsLogger.debug("\(text)", metadata: metadata)
            }
        }
    }
}
