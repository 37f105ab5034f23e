/// Commands that set something up for the server and then exec it, so that it keeps their pid
/// (`ServerProcess(launcher:)`).
enum Launcher {
    /// `ulimit -n` at `limit`, soft and hard (util-linux prlimit).
    static func descriptorLimit(_ limit: Int) -> [String] { ["/usr/bin/prlimit", "--nofile=\(limit):\(limit)", "--"] }
}
