import Glibc

/// Commands that set something up for the server and then exec it, so that it keeps their pid
/// (`ServerProcess(launcher:)`).
enum Launcher {
    /// `ulimit -n` at `limit`, soft and hard (util-linux prlimit).
    static func descriptorLimit(_ limit: Int) -> [String] { ["/usr/bin/prlimit", "--nofile=\(limit):\(limit)", "--"] }

    /// File modes mean what they say. Root writes a file whatever its mode (CAP_DAC_OVERRIDE), so
    /// when the tests run as root that capability (and CAP_DAC_READ_SEARCH) leaves the server's
    /// bounding set (util-linux setpriv), and a read-only file or directory refuses it as it would
    /// any other user. Not root: nothing to drop.
    static var withoutFileOverride: [String] {
        geteuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"] : []
    }
}
