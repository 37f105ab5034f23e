/// A decoded frame message (tests, tools). Layers marked keep have `ops == nil`.
public struct DecodedFrame: Sendable {
    public var version: UInt8
    public var isDelta: Bool
    public var seq: UInt32
    public var time: Double
    public var layers: [(id: UInt16, ops: [UInt8]?)]

    public init(_ bytes: [UInt8]) throws {
        var r = ByteReader(bytes)
        guard try r.u8() == FrameFormat.kind else { throw DisplayListDecodingError(offset: 0, reason: "not a frame") }
        version = try r.u8()
        isDelta = try r.u8() & FrameFormat.flagDelta != 0
        _ = try r.u8()
        seq = try r.u32()
        time = try r.f64()
        let count = Int(try r.u16())
        layers = []
        for _ in 0..<count {
            let id = try r.u16()
            if try r.u8() == FrameFormat.layerKeep {
                layers.append((id, nil))
            } else {
                let n = Int(try r.u32())
                layers.append((id, Array(try r.take(n))))
            }
        }
    }
}
