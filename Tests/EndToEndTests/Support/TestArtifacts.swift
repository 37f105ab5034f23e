import Foundation

/// Files the tests leave behind for people to look at: screenshots of the page at the moments
/// the browser tests care about. They are written on every run (each name overwritten), to
/// `.build/test-artifacts/screenshots/` in the package (README, "Tests"); no assertion reads them.
enum TestArtifacts {
    static let screenshots = PackagePaths.root.appendingPathComponent(
        ".build/test-artifacts/screenshots", isDirectory: true)
}

extension BrowserPage {
    /// Saves a PNG of the viewport as `<name>.png` (`firefox-<name>.png` from Firefox) in
    /// `TestArtifacts.screenshots` (created if missing; a file of that name from an earlier run is
    /// replaced). Returns the file and the PNG.
    @discardableResult
    func saveScreenshot(_ name: String) throws -> (file: URL, png: Data) {
        let png = try screenshot()
        try FileManager.default.createDirectory(at: TestArtifacts.screenshots, withIntermediateDirectories: true)
        let prefix = engine == .chromium ? "" : "\(engine)-"
        let file = TestArtifacts.screenshots.appendingPathComponent("\(prefix)\(name).png")
        try png.write(to: file, options: .atomic)
        return (file, png)
    }
}
