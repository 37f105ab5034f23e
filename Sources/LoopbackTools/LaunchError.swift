/// Why a child process or a server could not be started, worded to say what to do next.
public enum LaunchError: Error, CustomStringConvertible {
    case launchFailed(executable: String, reason: String)
    case serverBinaryMissing(path: String)
    case serverDidNotStart(reason: String, output: String)

    public var description: String {
        switch self {
        case let .launchFailed(executable, reason):
            return "cannot launch \(executable): \(reason)"
        case .serverBinaryMissing(let path):
            return "server binary not found at \(path): run `swift build` first, or set WIDGET_SERVER_BIN"
        case let .serverDidNotStart(reason, output):
            return "server did not start: \(reason)\n--- server output ---\n\(output)"
        }
    }
}
