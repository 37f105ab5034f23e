/// Several messages for one `send`: each framed as a server writes a WebSocket message (RFC 6455:
/// FIN, its opcode, its length; a server does not mask) and copied in after the one before, behind
/// `headroom` free bytes. The server keeps one and reuses it write after write; copying a few
/// hundred bytes costs far less than the `send` per message it saves. A lone message needs none
/// of this: it is written from its shared buffer, lws framing it in the headroom.
package final class FramedWrite {
    package let headroom: Int
    package private(set) var count = 0
    private var capacity: Int
    private var storage: UnsafeMutableRawPointer

    package init(headroom: Int, capacity: Int = 16 << 10) {
        self.headroom = headroom
        self.capacity = capacity
        storage = .allocate(byteCount: headroom + capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// The framed messages; `bytes - headroom` is free.
    package var bytes: UnsafeMutablePointer<UInt8> { (storage + headroom).assumingMemoryBound(to: UInt8.self) }

    package func removeAll() { count = 0 }

    /// Frames `messages` back to back, replacing what was there.
    package func frame(_ messages: [OutboundMessage]) {
        count = 0
        for message in messages { append(message.payload, message.kind) }
    }

    package func append(_ payload: SharedPayload, _ kind: MessageKind) {
        let length = payload.count
        reserve(count + Self.maxHeader + length)
        let out = bytes + count
        out[0] = 0x80 | (kind == .text ? 0x1 : 0x2)
        var header = 2
        if length < 126 {
            out[1] = UInt8(length)
        } else if length <= 0xFFFF {
            out[1] = 126
            header = 4
        } else {
            out[1] = 127
            header = 10
        }
        // The extended length, big-endian, in the bytes after the first two.
        for i in 2..<header { out[i] = UInt8(truncatingIfNeeded: length >> (8 * (header - 1 - i))) }
        (out + header).update(from: payload.bytes, count: length)
        count += header + length
    }

    /// A header is 2, 4 or 10 bytes.
    static let maxHeader = 10

    private func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        let grown = max(needed, capacity * 2)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: headroom + grown, alignment: 16)
        moved.copyMemory(from: storage, byteCount: headroom + count)
        storage.deallocate()
        storage = moved
        capacity = grown
    }
}
