import Testing

@testable import ScrollCore

/// Layer offsets on the wire (docs/PROTOCOL.md, "Frames"): keep, move and ops entries, the
/// `scroll` op, and the SVG renderer's translate for it.
@Suite struct LayerOffsetTests {
    static func list(_ x: Double) -> DisplayList {
        var l = DisplayList()
        l.save(); l.scroll(); l.line(x, 0, x, 5); l.restore()
        return l
    }

    @Test("same ops and offset: keep; same ops, new offset: move (11 B); new ops: ops with the offset")
    func encoderKinds() throws {
        var encoder = FrameEncoder()
        let a = Self.list(10), b = Self.list(20)
        _ = encoder.encode([Layer(id: 0, list: a), Layer(id: 1, list: a, offset: Point(x: -5, y: 0))], time: 1)
        let kept = encoder.encode([Layer(id: 0, list: a), Layer(id: 1, list: a, offset: Point(x: -5, y: 0))], time: 2)
        #expect(kept.changedLayers == 0 && kept.delta.count == FrameFormat.headerSize + 3 + 3)

        let moved = encoder.encode(
            [Layer(id: 0, list: a), Layer(id: 1, list: a, offset: Point(x: -7.5, y: 2))], time: 3)
        #expect(moved.changedLayers == 1 && moved.delta.count == FrameFormat.headerSize + 3 + 11)
        let delta = try DecodedFrame(moved.delta)
        #expect(delta.layers[0] == DecodedFrame.Layer(id: 0, ops: nil, offset: nil))
        #expect(delta.layers[1] == DecodedFrame.Layer(id: 1, ops: nil, offset: Point(x: -7.5, y: 2)))
        let full = try DecodedFrame(moved.full)
        #expect(full.layers[0] == DecodedFrame.Layer(id: 0, ops: a.bytes, offset: .zero))
        #expect(full.layers[1] == DecodedFrame.Layer(id: 1, ops: a.bytes, offset: Point(x: -7.5, y: 2)))

        let redrawn = encoder.encode(
            [Layer(id: 0, list: a), Layer(id: 1, list: b, offset: Point(x: -7.5, y: 2))], time: 4)
        #expect(redrawn.changedLayers == 1)
        #expect(
            try DecodedFrame(redrawn.delta).layers[1]
                == DecodedFrame.Layer(id: 1, ops: b.bytes, offset: Point(x: -7.5, y: 2)))
    }

    @Test(
        "a layer is known by its id wherever it stands: reordered, it is kept; gone, it is a change; back, it is sent whole"
    )
    func layersByID() throws {
        var encoder = FrameEncoder()
        let a = Self.list(10), b = Self.list(20)
        _ = encoder.encode([Layer(id: 0, list: a), Layer(id: 1, list: b), Layer(id: 2, list: a)], time: 1)
        let reordered = encoder.encode([Layer(id: 2, list: a), Layer(id: 0, list: a), Layer(id: 1, list: b)], time: 2)
        #expect(reordered.changedLayers == 0 && reordered.delta.count == FrameFormat.headerSize + 3 * 3)
        #expect(try DecodedFrame(reordered.delta).layers.map(\.id) == [2, 0, 1])
        let gone = encoder.encode([Layer(id: 2, list: a), Layer(id: 1, list: b)], time: 3)
        #expect(gone.changedLayers == 1 && gone.delta.count == FrameFormat.headerSize + 2 * 3)
        let back = encoder.encode([Layer(id: 0, list: a), Layer(id: 2, list: a), Layer(id: 1, list: b)], time: 4)
        #expect(back.changedLayers == 1)
        #expect(try DecodedFrame(back.delta).layers[0] == DecodedFrame.Layer(id: 0, ops: a.bytes, offset: .zero))
    }

    @Test("a frame's full form, made when asked, is that frame's: every layer's ops and offset, whatever came after")
    func fullOnDemand() throws {
        var encoder = FrameEncoder()
        let first = encoder.encode([Layer(id: 1, list: Self.list(1)), Layer(id: 2, list: Self.list(2))], time: 1)
        _ = encoder.encode([Layer(id: 1, list: Self.list(9), offset: Point(x: -3, y: 0))], time: 2)
        let full = try DecodedFrame(first.full)
        #expect(!full.isDelta && full.seq == 1 && full.time == 1)
        #expect(full.layers.map(\.id) == [1, 2])
        #expect(full.layers.map(\.ops) == [Self.list(1).bytes, Self.list(2).bytes])
        #expect(full.layers.allSatisfy { $0.offset == .zero })
    }

    @Test("an offset that only differs beyond float32 is kept, not moved")
    func float32Offsets() {
        var encoder = FrameEncoder()
        let a = Self.list(10)
        _ = encoder.encode([Layer(id: 1, list: a, offset: Point(x: -0.1, y: 0))], time: 1)
        let next = encoder.encode([Layer(id: 1, list: a, offset: Point(x: -0.1 + 1e-12, y: 0))], time: 2)
        #expect(next.changedLayers == 0)
    }

    @Test("an unknown layer kind is refused")
    func unknownKind() throws {
        var encoder = FrameEncoder()
        var bytes = encoder.encode([Layer(id: 1, list: Self.list(1))], time: 1).full
        bytes[FrameFormat.headerSize + 2] = 3
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(bytes) }
    }

    @Test("op 0x10 decodes as scroll; SVG translates by the layer's offset, and not at all for none")
    func scrollOp() throws {
        let l = Self.list(10)
        #expect(l.bytes[1] == 0x10)
        let ops = try DisplayListDecoder.decode(l.bytes)
        #expect(ops == [.save, .scroll, .line(10, 0, 10, 5), .restore])
        let size = Size(width: 20, height: 10)
        let moved = SVGRenderer.render(ops: [ops], offsets: [Point(x: -2.5, y: 1)], size: size)
        #expect(moved.contains("<g transform=\"translate(-2.5,1)\">\n<line x1=\"10\""))
        let still = SVGRenderer.render(ops: [ops], size: size)
        #expect(!still.contains("translate") && still.contains("<line x1=\"10\""))
        let fromLayers = try SVGRenderer.render([Layer(id: 3, list: l, offset: Point(x: -2.5, y: 1))], size: size)
        #expect(fromLayers == moved.replacingOccurrences(of: "layer-0", with: "layer-3"))
    }
}
