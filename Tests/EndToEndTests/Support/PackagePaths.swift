import Foundation

/// Paths inside this package, found from this file's place in it (tests only: the
/// binaries themselves never look at source paths).
enum PackagePaths {
    /// This file is <root>/Tests/EndToEndTests/Support/PackagePaths.swift.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let publicDirectory = root.appendingPathComponent("Public")

    /// The directory this test binary was built into, which holds the package's executables of
    /// the same build: `.build/debug`, or another build path's (`make asan` runs the
    /// AddressSanitizer build of `widget-server` from `.build/asan/…/debug`).
    static let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()

    /// The path of the package's executable `name` (`widget-server`, `widget-replay`, …).
    static func product(_ name: String) -> String { products.appendingPathComponent(name).path }
}
