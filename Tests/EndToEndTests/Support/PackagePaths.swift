import Foundation

/// Paths inside this package, found from this file's place in it (tests only: the
/// binaries themselves never look at source paths; the executables built beside the tests are
/// `LoopbackTools.Products`).
enum PackagePaths {
    /// This file is <root>/Tests/EndToEndTests/Support/PackagePaths.swift.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let publicDirectory = root.appendingPathComponent("Public")
}
