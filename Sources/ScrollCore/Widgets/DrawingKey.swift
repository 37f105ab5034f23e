/// What a widget's drawing depends on besides the theme (`Widget.drawingKey`): up to four
/// numbers and a text. A plain value on purpose: keys were `AnyHashable` arrays, whose
/// comparison casts every element dynamically, for every widget, every frame (a twentieth of
/// the server's time per pointer move).
public struct DrawingKey: Equatable, Sendable {
    public var a, b, c, d: Double
    public var text: String

    public init(_ a: Double, _ b: Double = 0, _ c: Double = 0, _ d: Double = 0) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
        text = ""
    }

    public init(text: String) {
        (a, b, c, d) = (0, 0, 0, 0)
        self.text = text
    }
}
