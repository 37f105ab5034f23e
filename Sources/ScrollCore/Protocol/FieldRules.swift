/// The wire's field rules (docs/PROTOCOL.md, "Limits"). Trace lines use the same ones
/// (docs/TRACES.md: "the limits are the wire's"), so a trace that replays offline can be
/// played live.
public enum FieldRules {
    public static let coordinate = FieldRule<Double, Double>.number(within: ClientMessageLimits.maxCoordinate)
    public static let wheelDelta = FieldRule<Double, Double>.number(within: ClientMessageLimits.maxDelta)
    /// The client's `event.timeStamp` (ms).
    public static let clientTime = FieldRule<Double, Double>.milliseconds()
    public static let pointerID = FieldRule<Double, Int>.integer(in: Int(Int32.min)...Int(Int32.max))
    public static let pointerPhase = FieldRule<String, PointerPhase>.oneOf(
        PointerPhase.allCases.map { ($0.rawValue, $0) })
    /// 0 points, 1 lines, 2 pages (DOM `WheelEvent.deltaMode`).
    public static let deltaMode = FieldRule<Double, Int>.integer(in: 0...2)
    /// A DOM `KeyboardEvent.key`.
    public static let keyName = FieldRule<String, String>.string(length: 1...32)
    public static let widgetID = FieldRule<String, String>.string(length: 1...64)
    public static let actionName = FieldRule<String, String>.string(length: 1...64)
    public static let actionArgs = FieldRule<[String: JSONValue], [String: JSONValue]>(
        "an object of at most \(ClientMessageLimits.maxArgs) arguments, named by 1–64 characters, "
            + "nested at most \(ClientMessageLimits.maxArgsDepth) deep"
    ) { args in
        args.count <= ClientMessageLimits.maxArgs && args.allSatisfy { (1...64).contains($0.key.count) }
            && args.values.allSatisfy { $0.depth < ClientMessageLimits.maxArgsDepth } ? args : nil
    }
    public static let text = FieldRule<String, String>("a string") { $0 }
    public static let themeName = FieldRule<String, String>.oneOf(Theme.all.map { ($0.name, $0.name) })

    /// The raw `coalesced` list; each item is then checked with `sample`.
    public static let coalesced = FieldRule<[[Double]], [[Double]]>(
        "a list of 1–\(ClientMessageLimits.maxCoalesced) [x, y, t] samples"
    ) { (1...ClientMessageLimits.maxCoalesced).contains($0.count) ? $0 : nil }

    public static let sample = FieldRule<[Double], ClientMessage.Sample>(
        "[x, y, t] with x and y \(coordinate.expectation), t \(clientTime.expectation)"
    ) { xyt in
        guard xyt.count == 3, let x = coordinate.validate(xyt[0]), let y = coordinate.validate(xyt[1]),
            let t = clientTime.validate(xyt[2])
        else { return nil }
        return ClientMessage.Sample(x: x, y: y, t: t)
    }
}
