/// `DisplayList.gradedRun`'s operands: a row of `count` marks, mark i centred at
/// (x0 + i·dx, y), each a rectangle whose size and fill are its **grade**: the first of `grades`
/// whose `below` is more than the mark's distance from `focus` as shown, |x0 + i·dx + offset −
/// focus| with the layer's offset added (a mark no grade takes is not drawn). Marks that grow as
/// they near a point (the picker's ticks near its centre) stay one op while the layer slides, so
/// a glide is one track the page grades at its own display rate (docs/PROTOCOL.md, "Display list").
public struct GradedRun: Sendable, Equatable {
    public struct Grade: Sendable, Equatable {
        /// Marks nearer than this (pt) take this grade, unless an earlier grade took them.
        public var below: Double
        public var width, height: Double
        public var fill: Color

        public init(below: Double, width: Double, height: Double, fill: Color) {
            self.below = below; self.width = width; self.height = height; self.fill = fill
        }
    }

    public var x0, y, dx: Double
    public var count: Int
    /// In the layer's own coordinates, where marks are nearest (the offset does not move it).
    public var focus: Double
    public var grades: [Grade]

    public init(x0: Double, y: Double, dx: Double, count: Int, focus: Double, grades: [Grade]) {
        self.x0 = x0; self.y = y; self.dx = dx; self.count = count; self.focus = focus; self.grades = grades
    }

    /// The grade of a mark `distance` (pt, either side) from the focus, if any.
    public func grade(at distance: Double) -> Grade? {
        let d = abs(distance)
        return grades.first { d < $0.below }
    }

    /// The marks drawn with the layer at horizontal `offset`, in order: each rectangle (before the
    /// offset's translation, as the ops that follow a `scroll` are) and its fill.
    public func marks(offset: Double) -> [(rect: Rect, fill: Color)] {
        (0..<count).compactMap { i in
            let x = x0 + Double(i) * dx
            guard let g = grade(at: x + offset - focus) else { return nil }
            return (Rect(x: x - g.width / 2, y: y - g.height / 2, width: g.width, height: g.height), g.fill)
        }
    }
}
