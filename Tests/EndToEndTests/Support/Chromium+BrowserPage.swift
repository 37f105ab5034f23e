import Foundation
import WebSocketClient

/// Chromium as a `BrowserPage`: gestures and keys as CDP input events.
extension Chromium: BrowserPage {
    var engine: Engine { .chromium }

    func addInitScript(_ source: String) throws {
        try call("Page.addScriptToEvaluateOnNewDocument", ["source": source])
    }

    /// Sends every step at once, each stamped with its time from the gesture's start, which is
    /// now or, if later, 0.1 s after the previous gesture's last step (timestamps never go back).
    func perform(_ gesture: Gesture) throws {
        let start = max(Date().timeIntervalSince1970, nextGestureTime)
        for step in gesture.steps {
            let t = start + step.time
            switch (gesture.pointer, step.phase) {
            case (.mouse, .down): try mouse("mousePressed", x: step.x, y: step.y, timestamp: t)
            case (.mouse, .move): try mouse("mouseMoved", x: step.x, y: step.y, timestamp: t)
            case (.mouse, .up): try mouse("mouseReleased", x: step.x, y: step.y, timestamp: t)
            case (.touch, .down): try touch("touchStart", x: step.x, y: step.y, timestamp: t)
            case (.touch, .move): try touch("touchMove", x: step.x, y: step.y, timestamp: t)
            case (.touch, .up): try touch("touchEnd", timestamp: t)
            }
        }
        nextGestureTime = start + gesture.duration + 0.1
    }

    /// A key down (with its text, for a key that types one) and up, with its code and key code.
    func press(_ key: String) throws {
        guard let k = KeyboardKey(key) else { throw HarnessError.unknownKey(key) }
        var down: [String: Any] = [
            "type": "keyDown", "key": k.key, "code": k.code, "windowsVirtualKeyCode": k.windowsKeyCode,
        ]
        if k.typesText { down["text"] = k.key }
        try call("Input.dispatchKeyEvent", down)
        try call(
            "Input.dispatchKeyEvent",
            ["type": "keyUp", "key": k.key, "code": k.code, "windowsVirtualKeyCode": k.windowsKeyCode])
    }

    func type(_ text: String) throws {
        try call("Input.insertText", ["text": text])
    }

    func expectingLoad(timeout: Double, _ action: () throws -> Void) throws {
        let deadline = Deadline(seconds: timeout)
        discardEvents(named: "Page.loadEventFired")
        try action()
        _ = try waitForEvent("Page.loadEventFired", timeout: deadline.remaining)
    }
}
