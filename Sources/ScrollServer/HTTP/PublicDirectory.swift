import Foundation

/// Finds the static page (`Public/` with an `index.html`) without a path baked in at
/// compile time, so a copied or installed binary still runs.
public enum PublicDirectory {
    public struct NotFound: Error, CustomStringConvertible {
        public var searched: [String]
        public var description: String {
            "no Public/index.html found (looked in \(searched.joined(separator: ", "))); pass --public DIR"
        }
    }

    /// Where the page is looked for without `--public`, in order: beside the executable,
    /// then in the working directory.
    public static func candidates(executable: String, workingDirectory: String) -> [String] {
        let beside = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Public").path
        let here = URL(fileURLWithPath: workingDirectory).appendingPathComponent("Public").path
        return beside == here ? [beside] : [beside, here]
    }

    /// The first candidate holding an `index.html`.
    public static func locate(
        executable: String, workingDirectory: String,
        hasIndex: (String) -> Bool = hasIndex
    ) throws(NotFound) -> String {
        let searched = candidates(executable: executable, workingDirectory: workingDirectory)
        guard let found = searched.first(where: hasIndex) else { throw NotFound(searched: searched) }
        return found
    }

    /// True when `directory/index.html` is a regular file.
    public static func hasIndex(_ directory: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory + "/index.html", isDirectory: &isDirectory)
            && !isDirectory.boolValue
    }

    /// This process's executable, symlinks resolved (`/proc/self/exe` on Linux).
    public static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
}
