import Foundation

/// The package's executables built beside this process: the tests find `widget-server`,
/// `widget-replay` and `widget-load` of their own build this way (`.build/debug`, or a sanitizer
/// build's own: `make asan` runs the AddressSanitizer `widget-server` from `.build/asan/…/debug`),
/// and `widget-load` the `widget-server` it was built with.
public enum Products {
    /// The directory this process's executable is in.
    public static let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()

    /// The path of the executable `name` in `directory`.
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
