import Foundation

/// The seed's arithmetic for one change of the digit roller (seed 001, DPScrollNumberLabel;
/// WIDGETS.md §4): which columns roll, how many turns, and the timeline of each. Columns are
/// numbered from the ones (0) leftwards; a column's position is a row of its strip
/// "0 1 … 9 0" (row 10 is the bottom 0).
enum RollerPlan {
    /// `normalModulus`: seconds per animated column per unit of the highest digit's change.
    static let secondsPerStep = 0.3
    /// `bufferModulus`: the end phase's scale.
    static let endScale = 0.7

    /// Columns needed to show n (0 needs one).
    static func columns(for n: Int) -> Int {
        var count = 1, rest = n / 10
        while rest != 0 {
            count += 1
            rest /= 10
        }
        return count
    }

    /// n's digits, ones first, `count` of them.
    static func digits(of n: Int, count: Int) -> [Int] {
        var rest = n
        return (0..<count).map { _ in
            defer { rest /= 10 }
            return rest % 10
        }
    }

    /// `getRepeatTimesWithChangeNumber`: for each column that rolls, r = its full turns plus one
    /// (the end's): 521 → 530 gives [1, 0], 521 → 542 gives [2, 0].
    static func repeatCounts(from old: Int, to new: Int) -> [Int] {
        var counts: [Int] = []
        var a = old, b = new
        repeat {
            a = a / 10 * 10
            b = b / 10 * 10
            counts.append(abs(b - a) / 10)
            a /= 10
            b /= 10
        } while a != b
        return counts
    }

    /// `getIntervalWithOriginalNumber`: 0.3 s · rolling columns · |change of the highest rolling digit|.
    static func interval(from old: Int, to new: Int) -> Double {
        let count = repeatCounts(from: old, to: new).count
        let scale = Int(pow(10, Double(count - 1)))
        return secondsPerStep * Double(count) * Double(abs(new / scale % 10 - old / scale % 10))
    }

    /// One eased (or linear, repeated) move of a column, in seconds from the change's start.
    struct Move: Equatable {
        enum Curve: Equatable { case easeIn, easeOut, linear }
        var start: Double
        var duration: Double
        var from: Double
        var to: Double
        var curve: Curve
        /// Linear full turns run this many times.
        var repeats = 1
        var end: Double { start + duration * Double(repeats) }
    }

    /// Column i's moves for a change of `change` ending on digit `target`, from row `current`,
    /// starting `delay` s in (the carry: the start phases of the columns below). Returns the
    /// moves and the start phase's length (what the next column waits for).
    static func moves(
        column i: Int, from current: Int, to target: Int, repeats r: Int, change: Int, interval: Double, delay: Double
    ) -> (moves: [Move], startDuration: Double) {
        guard r > 0 else {
            return (
                [Move(start: delay, duration: interval, from: Double(current), to: Double(target), curve: .easeOut)], 0
            )
        }
        let up = change > 0
        let perColumn = abs(Double(change) / pow(10, Double(i)))
        let startDuration = interval * Double(up ? 10 - current : current) / perColumn.rounded(.up)
        let cycleDuration = r == 1 ? 0 : interval * 10 / perColumn
        let endDuration = endScale * pow(Double(up ? target : 10 - target), 0.3) / Double(i + 1)
        // Counting up a column turns towards row 10 and restarts at row 0; down, the mirror.
        let (restart, turnEnd) = up ? (0.0, 10.0) : (10.0, 0.0)
        var moves = [
            Move(start: delay, duration: startDuration, from: Double(current), to: turnEnd, curve: .easeIn)
        ]
        var t = delay + startDuration
        if cycleDuration > 0 {
            moves.append(
                Move(start: t, duration: cycleDuration, from: restart, to: turnEnd, curve: .linear, repeats: r - 1))
            t += cycleDuration * Double(r - 1)
        }
        moves.append(Move(start: t, duration: endDuration, from: restart, to: Double(target), curve: .easeOut))
        return (moves, startDuration)
    }
}
