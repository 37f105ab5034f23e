import Testing
import WebSocketClient

/// The frame codec against RFC 6455 §5.7's examples, byte for byte.
@Suite struct FrameTests {
    typealias Frame = WebSocketClient.Frame
    let hello = Array("Hello".utf8)

    @Test("unmasked frames, as a server writes them: the RFC's Hello, fragments, 16- and 64-bit lengths")
    func unmasked() {
        #expect(Frame(opcode: .text, payload: hello).encoded(masked: false) == [0x81, 0x05] + hello)
        #expect(
            Frame(fin: false, opcode: .text, payload: Array("Hel".utf8)).encoded(masked: false)[0...1] == [0x01, 0x03])
        #expect(Frame(opcode: .continuation, payload: Array("lo".utf8)).encoded(masked: false)[0...1] == [0x80, 0x02])
        let b256 = Frame(opcode: .binary, payload: [UInt8](repeating: 7, count: 256)).encoded(masked: false)
        #expect(Array(b256.prefix(4)) == [0x82, 0x7E, 0x01, 0x00] && b256.count == 4 + 256)
        let b64k = Frame(opcode: .binary, payload: [UInt8](repeating: 7, count: 65_536)).encoded(masked: false)
        #expect(Array(b64k.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] && b64k.count == 10 + 65_536)
    }

    @Test("a client's frames are masked: the mask bit, a 4-byte key, the payload XORed with it")
    func masked() {
        let bytes = Frame(opcode: .text, payload: hello).encoded()
        #expect(Array(bytes.prefix(2)) == [0x81, 0x85] && bytes.count == 2 + 4 + 5)
        let key = Array(bytes[2..<6])
        #expect(bytes[6...].enumerated().map { $0.element ^ key[$0.offset % 4] } == hello)
    }

    @Test("any frame can be written, also one no peer may send: an unknown opcode, a client's unmasked one")
    func anyFrame() throws {
        let bad = Frame.encode(fin: true, opcode: 0x3, payload: hello, masked: false)
        #expect(bad == [0x83, 0x05] + hello)
        var queue = ByteQueue()
        queue.append(bad)
        #expect(throws: WebSocketError.protocolViolation("unknown opcode 3")) {
            try Frame.parse(from: &queue, maxPayload: 100)
        }
    }

    @Test("a server's frame is read once complete; masked ones are refused")
    func parse() throws {
        var queue = ByteQueue()
        queue.append([0x81, 0x05, 0x48, 0x65])
        #expect(try Frame.parse(from: &queue, maxPayload: 100) == nil)
        #expect(queue.count == 4)
        queue.append([0x6C, 0x6C, 0x6F, 0x89, 0x00])
        #expect(try Frame.parse(from: &queue, maxPayload: 100) == Frame(opcode: .text, payload: hello))
        #expect(try Frame.parse(from: &queue, maxPayload: 100) == Frame(opcode: .ping, payload: []))
        #expect(queue.count == 0)
        // The RFC's masked Hello, as only a client may send it.
        queue.append([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(throws: WebSocketError.protocolViolation("server frames must not be masked")) {
            try Frame.parse(from: &queue, maxPayload: 100)
        }
    }
}
