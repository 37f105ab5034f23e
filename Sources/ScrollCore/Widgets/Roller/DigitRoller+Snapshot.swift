/// What a restart keeps of a digit roller (docs/STATE.md). A roller keeps its settled number
/// and its queue; restored, it lands at rest on the last number of the queue (the newest
/// accepted change), as if its rolls had ended while the server was down. A readout keeps only
/// its column count; once the scene is restored it settles on its widget's value
/// (`Readout.settle(on:)`).
extension DigitRoller {
    /// The roller: `{"number": settled, "queue": [n, …], "columns": c}`; a readout `{"columns": c}`.
    public var snapshot: JSONValue? {
        let columns: (String, JSONValue) = ("columns", .number(Double(columnCount)))
        guard !isReadout else { return .object([columns]) }
        return .object([
            ("number", .number(Double(settledNumber))), ("queue", .array(queue.map { .number(Double($0)) })), columns,
        ])
    }

    public func restore(_ snapshot: JSONValue) throws(SnapshotError) {
        let saved = try SnapshotFields(
            snapshot, of: id, fields: isReadout ? ["columns"] : ["number", "queue", "columns"])
        let widest = columnRange(for: 0).upperBound
        let shown = FieldRule<Double, Int>.integer(in: 0...(0..<widest).reduce(1) { n, _ in n * 10 } - 1)
        let columns = try saved.required("columns", .integer(in: columnRange(for: 0)))
        guard !isReadout else {
            settle(on: number, columns: columns)
            return
        }
        let settled = try saved.required("number", shown)
        let queue = try saved.required(
            "queue",
            FieldRule<[Double], [Double]>("a list of at most 2 numbers") {
                $0.count <= 2 ? $0 : nil
            })
        var landing = settled
        for (i, raw) in queue.enumerated() {
            guard let n = shown.validate(raw) else {
                throw SnapshotError("\(id): queue[\(i)] must be \(shown.expectation)")
            }
            landing = n
        }
        settle(on: landing, columns: max(columns, columnRange(for: landing).lowerBound))
    }
}
