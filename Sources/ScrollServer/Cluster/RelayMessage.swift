import ScrollCore

/// What a relay tells a room's owner (docs/CLUSTER.md, "Relays"), on the room's `in` subject.
package enum RelayInbound: Equatable, Sendable {
    /// A client of `node` says hello to the room's `owner` (again, if no welcome came back within a
    /// second: core NATS may lose a message, and the owner may not listen yet). A hello from a
    /// client the owner knows starts it afresh. Only `owner` takes it: a hello sent to an owner
    /// that died, still on its way when the next owner listens, would welcome the client twice.
    case hello(node: String, client: UInt64, owner: String, text: String)
    /// A message from a client of `node`, as the client sent it.
    case message(node: String, client: UInt64, text: String)
    /// That client left.
    case left(node: String, client: UInt64)
    /// Every second while the relay has clients in the room: the owner lets go of the clients of a
    /// relay it no longer hears from (the relay died), as if they had left.
    case alive(node: String)
}

/// What a room's owner tells its relays, on the room's `out` subject: the same bytes its own
/// clients get, encoded once, in the order they happened.
package enum RelayOutbound: Equatable, Sendable {
    /// The room's latest frame for one theme (its render key): the delta from `seq − 1` and the
    /// frame standing alone, so a relay serves newcomers and clients that fell behind by itself.
    case frame(theme: String, seq: UInt32, changed: Bool, delta: [UInt8], full: [UInt8])
    /// An events message for every client of the room.
    case events(String)
    case semantics(String)
    case presence(String)
    /// A message for one client of `node`.
    case toClient(node: String, client: UInt64, ToClient)
    /// The owner let go of the room (stopping, or lost it): its relays' clients wait for the next.
    case closed
}

package enum ToClient: Equatable, Sendable {
    /// The welcome.
    case welcome(String)
    case error(code: String, message: String)
    /// The error, then the connection closes with its code.
    case fatal(code: String, message: String)
    /// The input with this client time was applied: echoed after the next frame.
    case applied(t: Double, follow: LayerFollow?)
    /// The client's theme changed: frames of `theme` from a full one on.
    case restartFrames(theme: String)
}

extension RelayInbound {
    package var encoded: [UInt8] {
        var b: [UInt8] = []
        switch self {
        case let .message(node, client, text):
            b.append(1)
            RelayBytes.string(&b, node)
            RelayBytes.u64(&b, client)
            RelayBytes.string(&b, text)
        case let .left(node, client):
            b.append(2)
            RelayBytes.string(&b, node)
            RelayBytes.u64(&b, client)
        case .alive(let node):
            b.append(3)
            RelayBytes.string(&b, node)
        case let .hello(node, client, owner, text):
            b.append(4)
            RelayBytes.string(&b, node)
            RelayBytes.u64(&b, client)
            RelayBytes.string(&b, owner)
            RelayBytes.string(&b, text)
        }
        return b
    }

    package init(decoding bytes: [UInt8]) throws {
        var r = ByteReader(bytes)
        switch try r.u8() {
        case 1: self = .message(node: try r.string(), client: try r.u64(), text: try r.string())
        case 2: self = .left(node: try r.string(), client: try r.u64())
        case 3: self = .alive(node: try r.string())
        case 4: self = .hello(node: try r.string(), client: try r.u64(), owner: try r.string(), text: try r.string())
        case let kind: throw RelayMessageError("unknown relay message \(kind)")
        }
        try r.expectEnd()
    }
}

extension RelayOutbound {
    package var encoded: [UInt8] {
        var b: [UInt8] = []
        switch self {
        case let .frame(theme, seq, changed, delta, full):
            b.reserveCapacity(16 + theme.utf8.count + delta.count + full.count)
            b.append(1)
            RelayBytes.string(&b, theme)
            append32(&b, seq)
            b.append(changed ? 1 : 0)
            RelayBytes.bytes(&b, delta)
            RelayBytes.bytes(&b, full)
        case .events(let text):
            b.append(2)
            RelayBytes.string(&b, text)
        case .semantics(let text):
            b.append(3)
            RelayBytes.string(&b, text)
        case .presence(let text):
            b.append(4)
            RelayBytes.string(&b, text)
        case let .toClient(node, client, message):
            b.append(5)
            RelayBytes.string(&b, node)
            RelayBytes.u64(&b, client)
            switch message {
            case .welcome(let text):
                b.append(1)
                RelayBytes.string(&b, text)
            case let .error(code, text):
                b.append(2)
                RelayBytes.string(&b, code)
                RelayBytes.string(&b, text)
            case let .fatal(code, text):
                b.append(3)
                RelayBytes.string(&b, code)
                RelayBytes.string(&b, text)
            case let .applied(t, follow):
                b.append(4)
                RelayBytes.u64(&b, t.bitPattern)
                b.append(follow == nil ? 0 : 1)
                if let follow {
                    append16(&b, follow.layer)
                    b.append(follow.follow.axis == .x ? 0 : 1)
                    for v in [follow.follow.ratio, follow.follow.range.lowerBound, follow.follow.range.upperBound] {
                        RelayBytes.u64(&b, v.bitPattern)
                    }
                }
            case .restartFrames(let theme):
                b.append(5)
                RelayBytes.string(&b, theme)
            }
        case .closed:
            b.append(6)
        }
        return b
    }

    package init(decoding bytes: [UInt8]) throws {
        var r = ByteReader(bytes)
        switch try r.u8() {
        case 1:
            self = .frame(
                theme: try r.string(), seq: try r.u32(), changed: try r.u8() != 0, delta: try r.bytes(),
                full: try r.bytes())
        case 2: self = .events(try r.string())
        case 3: self = .semantics(try r.string())
        case 4: self = .presence(try r.string())
        case 5:
            let node = try r.string()
            let client = try r.u64()
            let message: ToClient =
                switch try r.u8() {
                case 1: .welcome(try r.string())
                case 2: .error(code: try r.string(), message: try r.string())
                case 3: .fatal(code: try r.string(), message: try r.string())
                case 4: .applied(t: Double(bitPattern: try r.u64()), follow: try readFollow(&r))
                case 5: .restartFrames(theme: try r.string())
                case let kind: throw RelayMessageError("unknown client message \(kind)")
                }
            self = .toClient(node: node, client: client, message)
        case 6: self = .closed
        case let kind: throw RelayMessageError("unknown relay message \(kind)")
        }
        try r.expectEnd()
    }
}

/// Length-prefixed fields (little-endian, as the frames are).
private enum RelayBytes {
    static func u64(_ b: inout [UInt8], _ v: UInt64) {
        append32(&b, UInt32(truncatingIfNeeded: v))
        append32(&b, UInt32(truncatingIfNeeded: v >> 32))
    }
    static func bytes(_ b: inout [UInt8], _ data: [UInt8]) {
        append32(&b, UInt32(data.count))
        b.append(contentsOf: data)
    }
    static func string(_ b: inout [UInt8], _ s: String) { bytes(&b, Array(s.utf8)) }
}

extension ByteReader {
    fileprivate mutating func u64() throws -> UInt64 { UInt64(try u32()) | UInt64(try u32()) << 32 }
    fileprivate mutating func bytes() throws -> [UInt8] { Array(try take(Int(try u32()))) }
    fileprivate mutating func string() throws -> String { String(decoding: try bytes(), as: UTF8.self) }
    fileprivate func expectEnd() throws {
        guard isAtEnd else { throw RelayMessageError("bytes after the message") }
    }
}

package struct RelayMessageError: Error, Equatable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

/// `applied`'s follow: a flag, then layer, axis (0 x, 1 y), ratio, min, max.
private func readFollow(_ r: inout ByteReader) throws -> LayerFollow? {
    guard try r.u8() != 0 else { return nil }
    let layer = try r.u16()
    let axis: PointerFollow.Axis = try r.u8() == 0 ? .x : .y
    let ratio = Double(bitPattern: try r.u64())
    let lower = Double(bitPattern: try r.u64()), upper = Double(bitPattern: try r.u64())
    guard lower <= upper else { throw RelayMessageError("follow range \(lower)…\(upper)") }
    return LayerFollow(layer: layer, follow: PointerFollow(axis: axis, ratio: ratio, range: lower...upper))
}
