import FuzzSupport
import ScrollCore

/// libFuzzer entry: one WebSocket text message from a client, as the server reads it
/// (`String(decoding:as:)` of the frame's bytes; docs/PROTOCOL.md, "Client → server").
///
/// Beyond "never crashes": any JSON the parser takes, written out again, reads as the same
/// value; a refusal always says why; and a message the server accepts can always be recorded —
/// the recorder's lines read back as the same entries (docs/TRACES.md), so a room recorded with
/// `--record` replays.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientMessage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let value = try? JSONParser.parse(text) { checkWrittenBack(value) }
    switch ClientMessage.parse(text) {
    case .failure(let error):
        precondition(!error.message.isEmpty, "refused with \(error.code) and no message")
    case .success(let message):
        _ = InputMapping.sceneInputs(message, client: "c1")
        checkRecorded(message)
    }
    return 0
}

/// The recorder's lines for `message` parse back to exactly those entries.
private func checkRecorded(_ message: ClientMessage) {
    var recorder = TraceRecorder()
    let entries = recorder.record(message, client: "c1", roomTime: 12.5)
    guard !entries.isEmpty else { return }
    let lines = entries.map(\.jsonLine).joined(separator: "\n")
    do {
        let back = try TraceParser.parse(lines, name: "recorded")
        precondition(back == entries.map(\.asWritten), "recorded lines read back differently:\n\(lines)")
    } catch {
        preconditionFailure("recorded lines do not parse: \(error.message)\n\(lines)")
    }
}

/// `JSONValue.serialized` (what the server and the recorder write) parses back to the value.
private func checkWrittenBack(_ value: JSONValue) {
    let written = value.serialized
    do {
        let back = try JSONParser.parse(written)
        precondition(back == value.asWritten, "written as \(written), it reads back differently")
    } catch {
        preconditionFailure("written as \(written), it no longer parses (byte \(error.offset))")
    }
}
