import ScrollCore

/// libFuzzer entry, two ways over the same bytes:
/// - as a frame or a display list from the wire: decoding refuses or reads it, never traps,
///   and whatever decodes can be drawn (`SVGRenderer`, what `widget-replay --svg` uses);
/// - as a program: ops written with `DisplayList` decode back to exactly those ops, and frames
///   from `FrameEncoder` decode to the layers given (`FrameProgram`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDisplayList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    decodeAsReceived(bytes)

    var program = FuzzBytes(bytes)
    let ops = OpProgram(&program, maxOps: 32)
    do {
        let decoded = try DisplayListDecoder.decode(ops.list.bytes)
        precondition(decoded == ops.expected, "decoded \(decoded), wrote \(ops.expected)")
    } catch {
        preconditionFailure("a list DisplayList wrote does not decode: \(error)")
    }
    FrameProgram.run(&program, frames: 4)
    return 0
}

private func decodeAsReceived(_ bytes: [UInt8]) {
    let size = Size(width: 400, height: 300)
    if let ops = try? DisplayListDecoder.decode(bytes) {
        _ = SVGRenderer.render(ops: [ops], size: size)
    }
    if let frame = try? DecodedFrame(bytes) {
        let lists = frame.layers.compactMap { layer in layer.ops.flatMap { try? DisplayListDecoder.decode($0) } }
        _ = SVGRenderer.render(ops: lists, size: size)
    }
}
