import Foundation

/// Asks `condition` every `interval` seconds until it holds or `timeout` passes: for server state
/// that no callback announces (a key expiring). Whether it held.
func eventually(timeout: Double, interval: Double = 0.05, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
        if try condition() { return true }
        guard Date() < deadline else { return false }
        Thread.sleep(forTimeInterval: interval)
    }
}
