import Foundation

/// Where a browser the tests launch is found.
enum BrowserExecutable {
    /// `variable` from `environment` when set and not empty (a bare name, such as `chromium`, is
    /// looked up in its `PATH`), else `fallback`.
    static func find(variable: String, default fallback: String, environment: [String: String]) -> String {
        guard let name = environment[variable], !name.isEmpty else { return fallback }
        guard !name.contains("/") else { return name }
        let directories = (environment["PATH"] ?? "").split(separator: ":")
        let found = directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return found ?? name
    }
}
