import Foundation

/// How the printed tables show a figure: "–" where none was measured.
enum TableFigures {
    static func fixed(_ v: Double?, _ digits: Int) -> String { v.map { String(format: "%.\(digits)f", $0) } ?? "–" }

    /// A share (0…1) as a percentage.
    static func percent(_ v: Double?, _ digits: Int = 0) -> String {
        v.map { String(format: "%.\(digits)f %%", $0 * 100) } ?? "–"
    }
}
