/// A text readout of another widget's value (the carousel's selected name under it).
public final class ReadoutLabel: Readout {
    public let id: String
    public let frame: Rect
    private let label: String
    private let fontSize: Double
    /// How a number it is given reads.
    private let format: NumberFormat
    private var shown: ReadoutValue

    public init(
        id: String, frame: Rect, label: String, fontSize: Double = 44, format: NumberFormat = NumberFormat(),
        text: String = ""
    ) {
        self.id = id; self.frame = frame; self.label = label; self.fontSize = fontSize; self.format = format
        shown = .text(text)
    }

    public var isAnimating: Bool { false }
    public var drawingKey: DrawingKey? { DrawingKey(text: text) }
    public var text: String {
        switch shown {
        case .number(let n): format.text(n)
        case .text(let text): text
        }
    }

    public var semantics: Semantics {
        Semantics(id: id, role: "status", label: label, frame: frame, valueText: text)
    }

    public func follow(_ value: ReadoutValue) { shown = value }
    public func settle(on value: ReadoutValue) { shown = value }

    public func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool { false }
    public func advance(to time: Double, events: inout [SceneEvent]) {}

    public func render(into list: inout DisplayList, theme: Theme) {
        list.setFill(theme.text)
        list.text(text, x: frame.midX, y: frame.midY, size: fontSize, align: .center, baseline: .middle, weight: .bold)
    }
}
