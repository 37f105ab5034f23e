/// An sRGB colour with alpha, 8 bits per channel (the wire carries RGBA bytes).
public struct Color: Sendable, Equatable, Hashable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    /// `0xRRGGBB`, opaque.
    public init(hex: UInt32) {
        self.init(UInt8(hex >> 16 & 0xFF), UInt8(hex >> 8 & 0xFF), UInt8(hex & 0xFF))
    }
}

/// Colours a scene is painted with. Frames are rendered once per theme in use.
public struct Theme: Sendable, Equatable, Hashable {
    public var name: String
    public var background: Color
    public var surface: Color
    public var text: Color
    public var secondaryText: Color
    public var tick: Color
    public var faintTick: Color
    public var accent: Color
    /// Clients that asked for reduced motion see settled values instead of rolling digits: a
    /// rendering choice per client group, like the colours; the room's state is the same.
    public var reducedMotion = false

    /// What frames are cached under: one per theme and motion preference in use.
    public var renderKey: String { reducedMotion ? name + "/reduced-motion" : name }

    /// This theme for clients that do (or do not) want reduced motion.
    public func reducingMotion(_ reduced: Bool) -> Theme {
        var theme = self
        theme.reducedMotion = reduced
        return theme
    }

    public static let light = Theme(
        name: "light", background: Color(hex: 0xF2F2F7), surface: Color(hex: 0xFFFFFF),
        text: Color(hex: 0x1C1C1E), secondaryText: Color(hex: 0x6C6C70), tick: Color(hex: 0x1C1C1E),
        faintTick: Color(hex: 0xC7C7CC), accent: Color(hex: 0xFF6B00))
    public static let dark = Theme(
        name: "dark", background: Color(hex: 0x000000), surface: Color(hex: 0x1C1C1E),
        text: Color(hex: 0xF2F2F7), secondaryText: Color(hex: 0x98989F), tick: Color(hex: 0xE5E5EA),
        faintTick: Color(hex: 0x48484A), accent: Color(hex: 0xFF9F0A))

    public static let all = [light, dark]

    public static func named(_ name: String) -> Theme? { all.first { $0.name == name } }
}
