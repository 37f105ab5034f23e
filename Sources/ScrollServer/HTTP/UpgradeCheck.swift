import Foundation

/// What becomes of a WebSocket upgrade request, decided from its headers before lws answers
/// it (docs/PROTOCOL.md, "Handshake"). A refusal is a plain HTTP response, never a hang.
package struct UpgradeCheck: Sendable {
    package enum Verdict: Equatable {
        case accept
        case refuse(status: UInt32, message: String)
    }

    let origins: OriginPolicy
    let subprotocol: String

    package init(origins: OriginPolicy, subprotocol: String) {
        self.origins = origins
        self.subprotocol = subprotocol
    }

    /// `origin`, `host` and `protocols` are the request's `Origin`, `Host` and
    /// `Sec-WebSocket-Protocol` headers (nil: absent).
    package func verdict(origin: String?, host: String?, protocols: String?) -> Verdict {
        guard origins.allows(origin: origin, host: host) else {
            return .refuse(
                status: 403,
                message:
                    "WebSocket refused: pages from \(Self.printable(origin ?? "")) may not connect; this server "
                    + "takes pages it served itself, and origins named with --allow-origin\n")
        }
        let offered = (protocols ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard offered.contains(subprotocol) else {
            return .refuse(
                status: 400,
                message: "WebSocket refused: ask for the subprotocol \(subprotocol) (Sec-WebSocket-Protocol: "
                    + "\(subprotocol)); offered: \(protocols.map(Self.printable) ?? "none")\n")
        }
        return .accept
    }

    /// A header value fit to quote in a message: printable ASCII, at most 200 characters.
    private static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.prefix(200).map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
    }
}
