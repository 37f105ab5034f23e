import Testing
import WebSocketClient

@testable import ScrollServer

// RFC 6455 §5.2: a server's frame is FIN + opcode (text 0x1, binary 0x2), an unmasked length
// (7 bits; 126 and 2 bytes; 127 and 8 bytes, big-endian), then the payload.

@Suite("Several messages framed for one write")
struct FramedWriteTests {
    private func bytes(_ write: FramedWrite) -> [UInt8] {
        Array(UnsafeBufferPointer(start: write.bytes, count: write.count))
    }

    private func message(_ bytes: [UInt8], _ kind: MessageKind) -> OutboundMessage {
        OutboundMessage(payload: SharedPayload(bytes, headroom: testHeadroom), kind: kind)
    }

    @Test("headers of 2, 4 and 10 bytes: 5 B text, 300 B binary, 70,000 B binary")
    func headers() {
        let write = FramedWrite(headroom: testHeadroom, capacity: 64)
        write.frame([message(Array("hello".utf8), .text)])
        #expect(bytes(write) == [0x81, 0x05] + Array("hello".utf8))
        write.frame([message(Array(repeating: 7, count: 300), .binary)])
        #expect(Array(bytes(write).prefix(4)) == [0x82, 0x7E, 0x01, 0x2C] && write.count == 304)
        write.frame([message(Array(repeating: 9, count: 70_000), .binary)])
        #expect(Array(bytes(write).prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70])
        #expect(write.count == 70_010 && bytes(write).dropFirst(10).allSatisfy { $0 == 9 })
        // 125 is the longest 7-bit length, 65,535 the longest 16-bit one.
        write.frame([message(Array(repeating: 1, count: 125), .text)])
        #expect(Array(bytes(write).prefix(2)) == [0x81, 125])
        write.frame([message(Array(repeating: 1, count: 65_535), .binary)])
        #expect(Array(bytes(write).prefix(4)) == [0x82, 126, 0xFF, 0xFF])
    }

    @Test("back to back, a client reads each message whole and in order (the test client's own parser)")
    func backToBack() throws {
        let sent: [(bytes: [UInt8], kind: MessageKind)] = [
            (Array(#"{"type":"events"}"#.utf8), .text), ((0..<240).map { UInt8($0) }, .binary),
            (Array(#"{"type":"applied","t":7}"#.utf8), .text), (Array(repeating: 0x41, count: 20_000), .text),
        ]
        let write = FramedWrite(headroom: testHeadroom, capacity: 16)
        write.frame(sent.map { message($0.bytes, $0.kind) })
        var queue = ByteQueue()
        queue.append(bytes(write))
        var received: [WebSocketClient.Frame] = []
        while let frame = try WebSocketClient.Frame.parse(from: &queue, maxPayload: 1 << 20) { received.append(frame) }
        #expect(queue.count == 0)
        #expect(received.map(\.payload) == sent.map(\.bytes))
        #expect(received.map(\.opcode) == [.text, .binary, .text, .text] && received.allSatisfy(\.fin))
    }

    @Test("reused write after write: each framing replaces the last, the headroom stays free")
    func reused() {
        let write = FramedWrite(headroom: testHeadroom, capacity: 8)
        write.frame([message([1, 2, 3], .binary), message([4], .binary)])
        #expect(bytes(write) == [0x82, 3, 1, 2, 3, 0x82, 1, 4])
        write.frame([message([5], .text)])
        #expect(bytes(write) == [0x81, 1, 5])
        #expect(write.headroom == testHeadroom)
    }
}
