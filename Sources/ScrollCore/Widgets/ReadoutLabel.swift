/// A text readout that mirrors another widget's value (the "72.5 kg" above the ruler, the
/// picker's count).
public final class ReadoutLabel: Widget {
    public let id: String
    public let frame: Rect
    private let label: String
    private let fontSize: Double
    private let source: () -> String

    public init(id: String, frame: Rect, label: String, fontSize: Double = 44, source: @escaping () -> String) {
        self.id = id; self.frame = frame; self.label = label; self.fontSize = fontSize; self.source = source
    }

    public var isAnimating: Bool { false }
    public var drawingKey: DrawingKey? { DrawingKey(text: text) }
    public var text: String { source() }

    public var semantics: Semantics {
        Semantics(id: id, role: "status", label: label, frame: frame, valueText: text)
    }

    public func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool { false }
    public func advance(to time: Double, events: inout [SceneEvent]) {}

    public func render(into list: inout DisplayList, theme: Theme) {
        list.setFill(theme.text)
        list.text(text, x: frame.midX, y: frame.midY, size: fontSize, align: .center, baseline: .middle, weight: .bold)
    }
}
