import Foundation

/// The files of `deploy/` (docs/DEPLOY.md) as the tests read them.
enum DeployFiles {
    static let directory = PackagePaths.root.appendingPathComponent("deploy")
    static let unit = directory.appendingPathComponent("widget-server.service")
    static let site = directory.appendingPathComponent("nginx-site.conf")
    /// The public name both files use until a reader puts theirs in (docs/DEPLOY.md).
    static let publicName = "widgets.example.com"

    static func text(_ file: URL) throws -> String { try String(contentsOf: file, encoding: .utf8) }
}

/// A systemd unit read as systemd reads its `Key=value` lines: a trailing backslash continues a
/// line, `#` starts a comment line.
struct SystemdUnit {
    let text: String

    /// Every value given to `key`, in order, whatever the section.
    func values(_ key: String) -> [String] {
        let joined = text.replacingOccurrences(of: "\\\n", with: " ")
        return joined.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "="),
                line[..<equals].trimmingCharacters(in: .whitespaces) == key
            else { return nil }
            return line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
    }

    /// `ExecStart`'s words (the unit quotes none): the executable, then its arguments.
    var command: [String] {
        values("ExecStart").first.map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? []
    }

    /// The value after `option` in `ExecStart` (`--port 8080` → "8080"); nil if not given.
    func option(_ option: String) -> String? {
        guard let at = command.firstIndex(of: option), at + 1 < command.count else { return nil }
        return command[at + 1]
    }

    /// `ExecStart`'s arguments without the given options and their values.
    func arguments(dropping options: Set<String>) -> [String] {
        var kept: [String] = []
        var words = command.dropFirst().makeIterator()
        while let word = words.next() {
            if options.contains(word) { _ = words.next() } else { kept.append(word) }
        }
        return kept
    }
}

extension String {
    /// Every `old` replaced by `new`; throws if there is none, so an edit of the file under test
    /// never passes silently unchanged.
    func replacing(required old: String, with new: String) throws -> String {
        guard contains(old) else { throw WireError("expected \"\(old)\" in the file") }
        return replacingOccurrences(of: old, with: new)
    }
}
