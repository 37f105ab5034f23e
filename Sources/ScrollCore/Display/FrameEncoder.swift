/// One layer of a frame: a widget's display list under a stable id (z-order = frame order).
public struct Layer: Sendable, Equatable {
    public var id: UInt16
    public var list: DisplayList
    public init(id: UInt16, list: DisplayList) { self.id = id; self.list = list }
}

/// A rendered frame, encoded twice: `full` stands alone; `delta` sends only the
/// layers that changed since frame `seq − 1` (the rest as "keep"). The server picks
/// per client — delta only for a client whose last frame was exactly `seq − 1`,
/// so "latest wins" skipping never leaves a client with a stale layer.
public struct EncodedFrame: Sendable {
    public var seq: UInt32
    public var full: [UInt8]
    public var delta: [UInt8]
    /// Layers whose ops differ from frame `seq − 1` (0: the frame looks the same).
    public var changedLayers: Int
}

public enum FrameFormat {
    public static let kind: UInt8 = 0x46  // "F"
    public static let flagDelta: UInt8 = 0x01
    public static let layerOps: UInt8 = 0
    public static let layerKeep: UInt8 = 1
    /// kind, version, flags, reserved, seq u32, time f64, layer count u16.
    public static let headerSize = 18
}

public struct FrameEncoder: Sendable {
    public private(set) var seq: UInt32 = 0
    private var previous: [UInt16: [UInt8]] = [:]

    public init() {}

    public mutating func encode(_ layers: [Layer], time: Double) -> EncodedFrame {
        seq &+= 1
        var full = header(flags: 0, time: time, count: layers.count)
        var delta = header(flags: FrameFormat.flagDelta, time: time, count: layers.count)
        var changed = 0
        var next: [UInt16: [UInt8]] = [:]
        next.reserveCapacity(layers.count)
        for layer in layers {
            let ops = layer.list.bytes
            appendLayer(&full, id: layer.id, ops: ops)
            if previous[layer.id] == ops {
                append16(&delta, layer.id); delta.append(FrameFormat.layerKeep)
            } else {
                appendLayer(&delta, id: layer.id, ops: ops)
                changed += 1
            }
            next[layer.id] = ops
        }
        let removed = previous.keys.filter { next[$0] == nil }.count
        previous = next
        return EncodedFrame(seq: seq, full: full, delta: delta, changedLayers: changed + removed)
    }

    private func header(flags: UInt8, time: Double, count: Int) -> [UInt8] {
        var b: [UInt8] = [FrameFormat.kind, UInt8(ProtocolVersion.current), flags, 0]
        b.reserveCapacity(1024)
        append32(&b, seq)
        let t = time.bitPattern
        append32(&b, UInt32(t & 0xFFFF_FFFF)); append32(&b, UInt32(t >> 32))
        append16(&b, UInt16(count))
        return b
    }

    private func appendLayer(_ b: inout [UInt8], id: UInt16, ops: [UInt8]) {
        append16(&b, id); b.append(FrameFormat.layerOps)
        append32(&b, UInt32(ops.count)); b.append(contentsOf: ops)
    }
}
