/// The wire protocol version (docs/PROTOCOL.md). Bump on any incompatible change.
public enum ProtocolVersion {
    /// 10: tweens (display op 0x17: the carousel's add and delete drawn once). 9: eased tracks (a roller's roll as its eased moves), number runs, events-ahead runs as
    /// gaps with a text format, semantics patches. 8: graded runs and pulses (the picker's glide is one track). 7: wrapping tracks (a roller's
    /// column turning is one line). 6: events sent ahead
    /// (`events.ahead`, `events.cancel`): a glide's value reports with their times, played by the
    /// page. 5: layer tracks (layer kinds 3 and 4).
    /// History in docs/PROTOCOL.md.
    public static let current = 10
    /// The WebSocket subprotocol the page requests.
    public static let subprotocol = "scroll-widgets"
}

/// The product's release, shown by every executable's `--version`.
public enum ProductVersion {
    public static let current = "0.4.0"
    /// `0.2.0 (protocol 2)`: a page and a server agree when the protocol numbers do.
    public static var description: String { "\(current) (protocol \(ProtocolVersion.current))" }
}
