import CLibWebSockets
import Logging

/// libwebsockets logs through a C function with no context pointer, so its
/// destination is process-wide; it is set once, before the context exists.
nonisolated(unsafe) private var lwsLogger = Logger(label: "libwebsockets")

enum LWSLogging {
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
            switch Int32(level) {
            case Int32(LLL_ERR): lwsLogger.error("\(text)")
            case Int32(LLL_WARN): lwsLogger.warning("\(text)")
            case Int32(LLL_NOTICE): lwsLogger.info("\(text)")
            default: lwsLogger.debug("\(text)")
            }
        }
    }
}
