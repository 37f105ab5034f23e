/// What connect/disconnect cycle `n` of the soak does. Most run to the end; one in ten closes
/// before the welcome and one in ten drops the connection mid-way, each in two ways.
enum CycleKind: String, CaseIterable {
    /// hello, welcome, the first frame, then a close frame (1000).
    case complete
    /// A close frame as soon as the connection is open, before hello.
    case closeBeforeHello
    /// A close frame right after hello, before the welcome has come.
    case closeBeforeWelcome
    /// At the welcome the socket just closes (FIN, no close frame) while the server still has
    /// semantics, presence and the first frame to send.
    case dropAtWelcome
    /// As `dropAtWelcome`, but the socket is reset (RST).
    case resetAtWelcome

    init(cycle n: Int) {
        switch n % 20 {
        case 0: self = .closeBeforeHello
        case 5: self = .dropAtWelcome
        case 10: self = .closeBeforeWelcome
        case 15: self = .resetAtWelcome
        default: self = .complete
        }
    }

    var sendsHello: Bool { self != .closeBeforeHello }
}
