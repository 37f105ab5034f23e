/// Order statistics of a sample (nearest rank); nil when empty.
struct Percentiles {
    private let sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    var count: Int { sorted.count }
    var isEmpty: Bool { sorted.isEmpty }
    var median: Double? { self[0.5] }
    var min: Double? { sorted.first }
    var max: Double? { sorted.last }

    /// The value below which a share `q` (0…1) of the sample lies.
    subscript(q: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
    }
}
