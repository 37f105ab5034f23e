/// A push button drawn by the server (the roller's +1, +9, +99, −1, random): pressed while a
/// finger is down on it, it acts when the finger lifts inside it, as UIButton's touch-up-inside.
/// Enter or Space on the focused button, or the `press` action, act at once.
public final class PushButton: Widget {
    public let id: String
    public let frame: Rect
    public let title: String
    public let label: String
    private let act: (Double, inout [SceneEvent]) -> Void
    private var finger: PointerKey?
    private var inside = false

    public init(
        id: String, frame: Rect, title: String, label: String,
        action: @escaping (Double, inout [SceneEvent]) -> Void
    ) {
        self.id = id
        self.frame = frame
        self.title = title
        self.label = label
        act = action
    }

    public var isAnimating: Bool { false }
    public var drawingKey: DrawingKey? { DrawingKey(isPressed ? 1 : 0) }
    public var isPressed: Bool { finger != nil && inside }

    public var semantics: Semantics {
        Semantics(id: id, role: "button", label: label, frame: frame, valueText: isPressed ? "pressed" : nil)
    }

    public func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool {
        switch input.phase {
        case .down:
            finger = input.key
            inside = true
        case .move:
            if input.key == finger { inside = frame.contains(input.position) }
        case .up:
            guard input.key == finger else { return true }
            finger = nil
            if frame.contains(input.position) { act(time, &events) }
        case .cancel:
            if input.key == finger { finger = nil }
        }
        return true
    }

    public var keys: [String] { ["Enter", " "] }

    public func key(_ key: String, at time: Double, events: inout [SceneEvent]) -> Bool {
        guard keys.contains(key) else { return false }
        act(time, &events)
        return true
    }

    public var actions: [String] { ["press"] }

    public func perform(_ action: ActionInput, at time: Double, events: inout [SceneEvent]) throws(ActionError) {
        act(time, &events)
    }

    public func advance(to time: Double, events: inout [SceneEvent]) {}

    public func render(into list: inout DisplayList, theme: Theme) {
        list.setFill(isPressed ? theme.accent : theme.surface)
        list.fillRoundRect(frame, radius: 10)
        list.setFill(isPressed ? theme.surface : theme.text)
        list.text(title, x: frame.midX, y: frame.midY, size: 15, align: .center, baseline: .middle, weight: .bold)
    }
}
