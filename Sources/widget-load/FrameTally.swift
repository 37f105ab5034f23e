import ScrollCore

/// One connection's frames within the measurement window, from their headers only.
///
/// A gap in `seq` before a *full* frame is frames the server skipped for this client
/// (latest wins: docs/PROTOCOL.md, "Frames"). A gap before a *delta* is frames that changed
/// nothing and were not sent; the protocol counts those as received.
struct FrameTally {
    private(set) var frames = 0
    /// Frames that changed nothing (not sent, counted as received).
    private(set) var unchanged = 0
    private(set) var firstSeq: UInt32 = 0
    private(set) var lastSeq: UInt32 = 0
    private(set) var bytes = 0
    /// Messages of any kind (frames, events, semantics, …) received.
    var messages = 0

    /// The frame header: seq and whether it is a delta; nil if the bytes are not a frame.
    static func header(_ bytes: UnsafeRawBufferPointer) -> (seq: UInt32, isDelta: Bool, time: Double)? {
        guard bytes.count >= FrameFormat.headerSize, bytes[0] == FrameFormat.kind else { return nil }
        let seq = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let time = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        return (seq, bytes[2] & FrameFormat.flagDelta != 0, time)
    }

    mutating func frame(seq: UInt32, isDelta: Bool) {
        if firstSeq == 0 {
            firstSeq = seq
        } else if seq > lastSeq &+ 1, isDelta {
            unchanged += Int(seq - lastSeq - 1)
        }
        lastSeq = max(lastSeq, seq)
        frames += 1
    }

    mutating func received(bytes n: Int) { bytes += n }

    /// Frames the room rendered while this connection counted: from its first to the room's
    /// newest, less the one possibly still on its way when the window closed.
    func rendered(roomNewest: UInt32) -> Int {
        guard firstSeq != 0 else { return 0 }
        return Int(max(lastSeq, roomNewest &- 1)) - Int(firstSeq) + 1
    }

    /// The share of those it received (1 when none were rendered).
    func delivered(roomNewest: UInt32) -> Double {
        let rendered = rendered(roomNewest: roomNewest)
        return rendered == 0 ? 1 : Double(frames + unchanged) / Double(rendered)
    }
}
