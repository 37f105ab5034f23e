extension WebSocketClient {
    /// One RFC 6455 frame, and its codec. A client masks what it sends and reads unmasked frames;
    /// public so that a test client can write what no client may (unmasked, any opcode).
    public struct Frame: Equatable, Sendable {
        public enum Opcode: UInt8, Sendable {
            case continuation = 0x0
            case text = 0x1
            case binary = 0x2
            case close = 0x8
            case ping = 0x9
            case pong = 0xA

            public var isControl: Bool { rawValue & 0x8 != 0 }
        }

        public var fin: Bool
        public var opcode: Opcode
        public var payload: [UInt8]

        public init(fin: Bool = true, opcode: Opcode, payload: [UInt8]) {
            self.fin = fin; self.opcode = opcode; self.payload = payload
        }

        /// Wire bytes of this frame: masked with a fresh random key, as clients must, unless
        /// `masked` is false (as a server writes it).
        public func encoded(masked: Bool = true) -> [UInt8] {
            Self.encode(fin: fin, opcode: opcode.rawValue, payload: payload, masked: masked)
        }

        /// Wire bytes of any frame, also one no peer may send: `opcode` is written as given into
        /// the first byte's low bits (an unknown opcode; with bits 4–6, reserved bits set).
        public static func encode(fin: Bool, opcode: UInt8, payload: [UInt8], masked: Bool) -> [UInt8] {
            var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
            let maskBit: UInt8 = masked ? 0x80 : 0
            let count = payload.count
            if count < 126 {
                bytes.append(maskBit | UInt8(count))
            } else if count <= 0xFFFF {
                bytes.append(maskBit | 126)
                bytes += [UInt8(count >> 8), UInt8(count & 0xFF)]
            } else {
                bytes.append(maskBit | 127)
                bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(56 - $0 * 8)) }
            }
            guard masked else { return bytes + payload }
            var generator = SystemRandomNumberGenerator()
            let mask = (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            bytes += mask
            bytes.reserveCapacity(bytes.count + count)
            for (i, byte) in payload.enumerated() { bytes.append(byte ^ mask[i & 3]) }
            return bytes
        }

        /// Removes one complete frame from the front of `queue`; nil if more bytes are needed.
        /// Frames from a server: unmasked, a known opcode, no reserved bits, control frames whole
        /// and short; anything else throws `protocolViolation`.
        public static func parse(from queue: inout ByteQueue, maxPayload: Int) throws -> Frame? {
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
                guard length <= 125 else {
                    throw WebSocketError.protocolViolation("control frame longer than 125 bytes")
                }
            }
            guard length <= UInt64(maxPayload) else {
                throw WebSocketError.protocolViolation("frame of \(length) bytes exceeds the \(maxPayload)-byte limit")
            }
            guard queue.count >= headerLength + Int(length) else { return nil }
            _ = queue.consume(headerLength)
            return Frame(fin: fin, opcode: opcode, payload: queue.consume(Int(length)))
        }
    }
}
