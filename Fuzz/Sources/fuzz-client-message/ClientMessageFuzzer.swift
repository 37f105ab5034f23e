import FuzzSupport
import ScrollCore

/// libFuzzer entry: one WebSocket text message from a client, as the server reads it
/// (`String(decoding:as:)` of the frame's bytes; docs/PROTOCOL.md, "Client → server").
///
/// Beyond "never crashes": a pointer message read without its JSON tree reads as with it; any
/// JSON the parser takes, written out again, reads as the same value; a refusal always says why;
/// a message the server accepts, written by `ClientMessage.encoded()` (what our tools send),
/// reads back as the same message; and it can always be recorded — the recorder's lines read
/// back as the same entries (docs/TRACES.md), so a room recorded with `--record` replays.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientMessage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let value = try? JSONParser.parse(text) { checkWrittenBack(value) }
    let parsed = ClientMessage.parse(text)
    checkShortcut(text, parsed)
    checkTimeText(text, parsed)
    switch parsed {
    case .failure(let error):
        precondition(!error.message.isEmpty, "refused with \(error.code) and no message")
    case .success(let message):
        _ = InputMapping.sceneInputs(message, client: "c1")
        checkEncoded(message)
        checkRecorded(message)
    }
    return 0
}

/// What `parse` read, a pointer's fields read straight (`readPointer`) or anything else, is what
/// the whole reader (its JSON tree, then its fields) reads: the same message or the same refusal.
private func checkShortcut(_ text: String, _ parsed: Result<ClientMessage, ProtocolError>) {
    guard text.utf8.count <= ClientMessageLimits.maxBytes else { return }
    let whole = ClientMessage.parseWhole(text)
    precondition(parsed == whole, "\(text) reads as \(parsed), as a whole as \(whole)")
}

/// The `t` text `parse(_:timeText:)` keeps (which `applied` echoes as it came) is the message's
/// newest input time: an `applied` echoing it reads back as that number.
private func checkTimeText(_ text: String, _ parsed: Result<ClientMessage, ProtocolError>) {
    var time: NumberText?
    _ = ClientMessage.parse(text, timeText: &time)
    guard let time else { return }
    guard case .success(let message) = parsed, let newest = message.inputTimes?.last else {
        preconditionFailure("\(text): a time text \(time) kept for \(parsed)")
    }
    let applied = ServerMessage.applied(t: newest, text: time, followField: nil)
    guard case .object(let fields)? = try? JSONParser.parse(applied),
        case .number(let t)? = fields.first(where: { $0.0 == "t" })?.1
    else { preconditionFailure("\(text): its echo \(applied) does not read back") }
    precondition(t == newest, "\(text): its echo \(applied) reads as \(t), not \(newest)")
}

/// `message.encoded()` parses back to the same message. The one way it may not: a message near
/// the size limit whose numbers are written longer than they were sent (1e22 as 1e+22) can
/// grow past it, and is then refused as too large.
private func checkEncoded(_ message: ClientMessage) {
    let text = message.encoded()
    switch ClientMessage.parse(text) {
    case .success(let back):
        precondition(back == message.asWritten, "encoded as \(text), it reads back as \(back)")
    case .failure(let error):
        precondition(
            error.code == .tooLarge && text.utf8.count > ClientMessageLimits.maxBytes,
            "encoded as \(text), it is refused: \(error.message)")
    }
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
