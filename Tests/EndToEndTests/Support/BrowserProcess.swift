import Foundation
import Glibc
import LoopbackTools

/// A browser process the tests launch, with a fresh profile directory (also its HOME) that `end`
/// removes.
final class BrowserProcess {
    let profile: URL
    let child: ChildProcess

    /// Makes the profile directory (`prefix`-UUID in the temp directory), lets `prepare` fill it,
    /// and starts `executable` with the arguments `arguments` makes of the profile's path and
    /// `environment` beside this process's own.
    init(
        executable: String, prefix: String, environment: [String: String] = [:],
        prepare: (URL) throws -> Void = { _ in }, arguments: (String) -> [String]
    ) throws {
        profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        variables["HOME"] = profile.path
        do {
            try prepare(profile)
            child = try ChildProcess(executable: executable, arguments: arguments(profile.path), environment: variables)
        } catch {
            try? FileManager.default.removeItem(at: profile)
            throw error
        }
    }

    /// Waits up to `grace` seconds for the browser to exit (once asked to quit), then kills it by
    /// its pid; removes the profile directory.
    func end(grace: Double) {
        if !child.waitForExit(timeout: grace) {
            child.send(signal: SIGKILL)
            child.waitForExit(timeout: 5)
        }
        try? FileManager.default.removeItem(at: profile)
    }
}
