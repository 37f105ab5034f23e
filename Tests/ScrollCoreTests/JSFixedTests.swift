import Foundation
import Testing

@testable import ScrollCore

/// `JSFixed` against what JavaScript's `toFixed` gives (the strings below are V8's, as written by
/// `node -e 'console.log((0.25).toFixed(1))'`): the same where it is sure, refused where a tie
/// (or a size, or a sign) would make it guess.
struct JSFixedTests {
    /// (value, decimals, `value.toFixed(decimals)` in JavaScript, sure).
    static let table: [(Double, Int, String, Bool)] = [
        (74.2, 1, "74.2", true), (72.5, 1, "72.5", true), (37, 0, "37", true), (0, 0, "0", true),
        (-0.04, 1, "-0.0", true),  // negative: "-" and the magnitude's digits, though it rounds to 0
        (-0.0, 1, "0.0", true),  // but -0 is not below 0: printf writes "-0.0"
        (1e-7, 2, "0.00", true), (-1e-7, 2, "-0.00", true), (0.000001, 6, "0.000001", true),
        (-37.4, 0, "-37", true), (-0.6, 0, "-1", true), (123456.789, 3, "123456.789", true),
        (999999.9, 1, "999999.9", true), (234.5678, 6, "234.567800", true),
        // Ties on the exact binary value: JavaScript takes the larger n, printf the even one.
        (0.25, 1, "0.3", false), (2.5, 0, "3", false), (-2.5, 0, "-3", false), (0.125, 2, "0.13", false),
        (74.25, 1, "74.3", false), (0.5, 0, "1", false),
        // Within 1e-6 of a tie, though not one: refused all the same.
        (1.005, 2, "1.00", false), (0.05, 1, "0.1", false), (0.15, 1, "0.1", false), (1.45, 1, "1.4", false),
        (8.345, 2, "8.35", false), (5e-7, 6, "0.000000", false),
        // Too large to tell a tie by a Double's product, past 6 decimals, not finite.
        (1e8, 1, "100000000.0", false), (1234.5678, 6, "1234.567800", false), (1e21, 0, "1e+21", false),
        (0.1, 20, "0.10000000000000000555", false),
        (.infinity, 1, "Infinity", false), (.nan, 1, "NaN", false),
    ]

    @Test("the strings JavaScript's toFixed gives where sure; nil for ties, near ties, sizes and NaN")
    func table() {
        for (value, decimals, js, sure) in Self.table {
            #expect(JSFixed.string(value, decimals: decimals) == (sure ? js : nil), "\(value) \(decimals)")
        }
    }

    @Test("where sure, the correctly rounded digits (printf's) but for the sign of zero: a sweep of tenths and cents")
    func printf() {
        for n in -5_000...5_000 {
            for (value, decimals) in [(Double(n) / 10, 1), (Double(n) / 100, 2), (Double(n) / 1000 + 0.0004, 3)] {
                guard let fixed = JSFixed.string(value, decimals: decimals) else {
                    Issue.record("refused \(value) at \(decimals)")
                    continue
                }
                let c = String(format: "%.\(decimals)f", value == 0 ? 0 : value)
                if fixed != c { Issue.record("\(value): \(fixed), printf \(c)") }
            }
        }
    }
}
