/// One RFC 6455 frame, and the codec for the client side of the wire:
/// outgoing frames are masked, incoming ones must not be.
struct Frame {
    enum Opcode: UInt8 {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    var fin: Bool
    var opcode: Opcode
    var payload: [UInt8]

    /// Wire bytes of this frame, masked with a fresh random key as clients must.
    func encodedMasked() -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        let count = payload.count
        if count < 126 {
            bytes.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            bytes.append(0x80 | 126)
            bytes += [UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(56 - $0 * 8)) }
        }
        var generator = SystemRandomNumberGenerator()
        let mask = (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes += mask
        bytes.reserveCapacity(bytes.count + count)
        for (i, byte) in payload.enumerated() { bytes.append(byte ^ mask[i & 3]) }
        return bytes
    }

    /// Removes one complete frame from the front of `queue`; nil if more bytes are needed.
    static func parse(from queue: inout ByteQueue, maxPayload: Int) throws -> Frame? {
        guard queue.count >= 2 else { return nil }
        let first = queue[0], second = queue[1]
        guard first & 0x70 == 0 else {
            throw WebSocketError.protocolViolation("reserved bits set without a negotiated extension")
        }
        guard let opcode = Opcode(rawValue: first & 0x0F) else {
            throw WebSocketError.protocolViolation("unknown opcode \(first & 0x0F)")
        }
        guard second & 0x80 == 0 else {
            throw WebSocketError.protocolViolation("server frames must not be masked")
        }
        let fin = first & 0x80 != 0

        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard queue.count >= 4 else { return nil }
            length = UInt64(queue[2]) << 8 | UInt64(queue[3])
            headerLength = 4
        } else if length == 127 {
            guard queue.count >= 10 else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | UInt64(queue[$1]) }
            headerLength = 10
            guard length >> 63 == 0 else {
                throw WebSocketError.protocolViolation("64-bit length with the high bit set")
            }
        }
        if opcode.isControl {
            guard fin else { throw WebSocketError.protocolViolation("fragmented control frame") }
            guard length <= 125 else { throw WebSocketError.protocolViolation("control frame longer than 125 bytes") }
        }
        guard length <= UInt64(maxPayload) else {
            throw WebSocketError.protocolViolation("frame of \(length) bytes exceeds the \(maxPayload)-byte limit")
        }
        guard queue.count >= headerLength + Int(length) else { return nil }
        _ = queue.consume(headerLength)
        return Frame(fin: fin, opcode: opcode, payload: queue.consume(Int(length)))
    }
}
