import FuzzSupport
import ScrollCore

/// libFuzzer entry: a trace file (docs/TRACES.md), as `widget-replay` reads it.
///
/// Beyond "never crashes": a refusal names a line of the file, and an accepted trace written
/// back line by line (the recorder's form, `TraceEntry.jsonLine`) reads as the same entries.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let entries: [TraceEntry]
    do {
        entries = try TraceParser.parse(text, name: "fuzz")
    } catch {
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.count
        precondition((1...lines).contains(error.line), "refusal names line \(error.line) of \(lines)")
        precondition(!error.message.isEmpty, "refusal without a message")
        return 0
    }
    let written = entries.map(\.jsonLine).joined(separator: "\n")
    do {
        let back = try TraceParser.parse(written, name: "written")
        precondition(back == entries.map(\.asWritten), "written back, the trace reads differently:\n\(written)")
    } catch {
        preconditionFailure("written back, the trace does not parse: \(error)\n\(written)")
    }
    return 0
}
