/// A key the tests press, with what each protocol needs to send it as a keyboard would: CDP wants
/// the `code` and Windows key code, WebDriver a key value (a Private Use code point for keys that
/// type nothing, WebDriver § 17.4.2).
struct KeyboardKey: Equatable {
    /// `KeyboardEvent.key`.
    let key: String
    /// `KeyboardEvent.code`.
    let code: String
    let windowsKeyCode: Int
    let webDriverValue: String

    /// The keys that type nothing, by `KeyboardEvent.key`.
    private static let named: [String: (code: String, windowsKeyCode: Int, webDriver: Unicode.Scalar)] = [
        "Tab": ("Tab", 9, "\u{E004}"), "Enter": ("Enter", 13, "\u{E006}"), "Escape": ("Escape", 27, "\u{E00C}"),
        "PageUp": ("PageUp", 33, "\u{E00E}"), "PageDown": ("PageDown", 34, "\u{E00F}"),
        "End": ("End", 35, "\u{E010}"), "Home": ("Home", 36, "\u{E011}"),
        "ArrowLeft": ("ArrowLeft", 37, "\u{E012}"), "ArrowUp": ("ArrowUp", 38, "\u{E013}"),
        "ArrowRight": ("ArrowRight", 39, "\u{E014}"), "ArrowDown": ("ArrowDown", 40, "\u{E015}"),
    ]

    /// Whether the key types its own text (" ", letters, digits).
    var typesText: Bool { key.count == 1 }

    /// `key` as a `KeyboardEvent.key`: a named key above, a space, or one ASCII letter or digit.
    init?(_ key: String) {
        if let named = Self.named[key] {
            self.init(
                key: key, code: named.code, windowsKeyCode: named.windowsKeyCode,
                webDriverValue: String(named.webDriver))
        } else if key == " " {
            self.init(key: key, code: "Space", windowsKeyCode: 32, webDriverValue: key)
        } else if key.count == 1, let c = key.unicodeScalars.first, c.isASCII,
            c.properties.isAlphabetic || ("0"..."9").contains(c)
        {
            let upper = key.uppercased()
            let code = c.properties.isAlphabetic ? "Key\(upper)" : "Digit\(key)"
            self.init(key: key, code: code, windowsKeyCode: Int(upper.unicodeScalars.first!.value), webDriverValue: key)
        } else {
            return nil
        }
    }

    private init(key: String, code: String, windowsKeyCode: Int, webDriverValue: String) {
        self.key = key
        self.code = code
        self.windowsKeyCode = windowsKeyCode
        self.webDriverValue = webDriverValue
    }
}
