import ScrollCore

/// A run of frames through one `FrameEncoder`, chosen by the fuzzer's bytes, checked against
/// the frame format (docs/PROTOCOL.md, "Frames"): the full frame holds every layer as given;
/// the delta keeps exactly the layers whose ops and offset are unchanged, moves those whose
/// offset alone changed, and resends the rest; `changedLayers` counts what changed or went.
enum FrameProgram {
    static func run(_ input: inout FuzzBytes, frames: Int) {
        var encoder = FrameEncoder()
        // The layers of frame k − 1, by id.
        var held: [UInt16: Layer] = [:]
        for k in 1...frames where !input.isEmpty {
            var layers: [Layer] = []
            let present = input.u8()
            for id in UInt16(0)..<8 where present & 1 << id != 0 {
                let offset = Point(x: input.float(), y: input.float())
                // Odd: the list it held (a keep or a move); even: a new one.
                let list = input.u8() & 1 == 1 ? held[id]?.list : nil
                layers.append(Layer(id: id, list: list ?? OpProgram(&input, maxOps: 6).list, offset: offset))
            }
            let bits = UInt64(input.u32()) | UInt64(input.u32()) << 32
            let time = Double(bitPattern: bits).isNaN ? 0 : Double(bitPattern: bits)
            let frame = encoder.encode(layers, time: time)
            precondition(frame.seq == UInt32(k), "frame \(k) has seq \(frame.seq)")

            let full = decode(frame.full, seq: frame.seq, time: time, delta: false)
            let given = layers.map { Sent(id: $0.id, ops: $0.list.bytes, offset: $0.offset) }
            precondition(full.layers.map(Sent.init) == given, "full frame \(k) holds other layers than it was given")

            let delta = decode(frame.delta, seq: frame.seq, time: time, delta: true)
            precondition(delta.layers.map(\.id) == layers.map(\.id), "delta frame \(k) has other layers")
            var changed = held.keys.filter { id in !layers.contains { $0.id == id } }.count
            for (layer, sent) in zip(layers, delta.layers) {
                let sameOps = held[layer.id].map { $0.list.bytes == layer.list.bytes } ?? false
                let sameOffset = held[layer.id].map { samePlace($0.offset, layer.offset) } ?? false
                let expected =
                    switch (sameOps, sameOffset) {
                    case (true, true): Sent(id: layer.id, ops: nil, offset: nil)
                    case (true, false): Sent(id: layer.id, ops: nil, offset: layer.offset)
                    case (false, _): Sent(id: layer.id, ops: layer.list.bytes, offset: layer.offset)
                    }
                precondition(Sent(sent) == expected, "delta frame \(k), layer \(layer.id): \(sent), not \(expected)")
                if !(sameOps && sameOffset) { changed += 1 }
            }
            precondition(frame.changedLayers == changed, "frame \(k): \(frame.changedLayers) changed, not \(changed)")
            held = Dictionary(uniqueKeysWithValues: layers.map { ($0.id, $0) })
        }
    }

    /// A layer as a frame sends it: nil ops for a keep or a move, nil offset for a keep.
    fileprivate struct Sent: Equatable {
        var id: UInt16
        var ops: [UInt8]?
        var offset: Point?
    }

    /// The frame's header must say what was encoded.
    private static func decode(_ bytes: [UInt8], seq: UInt32, time: Double, delta: Bool) -> DecodedFrame {
        guard let frame = try? DecodedFrame(bytes) else { preconditionFailure("an encoded frame does not decode") }
        precondition(frame.version == UInt8(ProtocolVersion.current), "frame version \(frame.version)")
        precondition(
            frame.isDelta == delta && frame.seq == seq, "frame header: delta \(frame.isDelta), seq \(frame.seq)")
        precondition(frame.time.bitPattern == time.bitPattern, "frame time \(frame.time), not \(time)")
        return frame
    }

    /// As the encoder compares offsets: float32 values, so 0 and −0 are one place (a page shows
    /// them alike) and NaN is never the same.
    private static func samePlace(_ a: Point, _ b: Point) -> Bool {
        Float(a.x) == Float(b.x) && Float(a.y) == Float(b.y)
    }
}

extension FrameProgram.Sent {
    init(_ layer: DecodedFrame.Layer) { self.init(id: layer.id, ops: layer.ops, offset: layer.offset) }
}
