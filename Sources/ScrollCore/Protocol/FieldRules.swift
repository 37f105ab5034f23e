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
    /// The name of each of an action's arguments.
    public static let argumentName = TextLength(1...64)
    /// Strings in arguments are a widget's to bound (the carousel's names: 32 characters); this
    /// bound holds for all of them, so nothing an action carries is large.
    public static let actionArgs = FieldRule<[String: JSONValue], [String: JSONValue]>(
        "an object of at most \(ClientMessageLimits.maxArgs) arguments, named by \(argumentName), "
            + "nested at most \(ClientMessageLimits.maxArgsDepth) deep, "
            + "with no string in it over \(ClientMessageLimits.maxArgStringBytes) bytes in UTF-8"
    ) { args in
        args.count <= ClientMessageLimits.maxArgs && args.keys.allSatisfy { argumentName.admits($0) }
            && args.values.allSatisfy {
                $0.depth < ClientMessageLimits.maxArgsDepth && $0.longestString <= ClientMessageLimits.maxArgStringBytes
            } ? args : nil
    }
    public static let text = FieldRule<String, String>("a string") { $0 }
    /// `PointerEvent.pointerType`: "mouse", "pen", "touch", or "" when the browser cannot tell.
    public static let pointerType = FieldRule<String, String>.string(length: 0...32)
    public static let themeName = FieldRule<String, String>.oneOf(Theme.all.map { ($0.name, $0.name) })

    /// How many samples `coalesced` may hold.
    public static let coalescedCount = 1...ClientMessageLimits.maxCoalesced

    /// The raw `coalesced` list; each item is then checked with `sample`.
    public static let coalesced = FieldRule<[[Double]], [[Double]]>(
        "a list of 1–\(ClientMessageLimits.maxCoalesced) [x, y, t] samples"
    ) { coalescedCount.contains($0.count) ? $0 : nil }

    public static let sample = FieldRule<[Double], ClientMessage.Sample>(
        "[x, y, t] with x and y \(coordinate.expectation), t \(clientTime.expectation)"
    ) { xyt in xyt.count == 3 ? sample(x: xyt[0], y: xyt[1], t: xyt[2]) : nil }

    /// `sample`'s rule for the three numbers of one sample.
    public static func sample(x: Double, y: Double, t: Double) -> ClientMessage.Sample? {
        guard let x = coordinate.validate(x), let y = coordinate.validate(y), let t = clientTime.validate(t) else {
            return nil
        }
        return ClientMessage.Sample(x: x, y: y, t: t)
    }
}
