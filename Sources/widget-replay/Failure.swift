import ArgumentParser
import Foundation

/// A one-line message on stderr and the exit code the docs promise.
enum Failure: Error, CustomStringConvertible {
    /// Exit 1: the trace is malformed (the message names the line).
    case badTrace(String)
    /// Exit 1: the result differs from `--expect`'s (the message says where first).
    case differs(String)
    /// Exit 2: a file or the connection failed.
    case io(String)
    /// Exit 64, as for bad options: an option's file is missing or not what it must be.
    case usage(String)

    var description: String {
        switch self {
        case .badTrace(let m), .differs(let m), .io(let m), .usage(let m): return m
        }
    }

    var exitCode: Int32 {
        switch self {
        case .badTrace, .differs: return 1
        case .io: return 2
        case .usage: return 64
        }
    }
}

extension WidgetReplay {
    /// ArgumentParser prints thrown errors with its own framing and exit code; ours
    /// get exactly one line and their documented code.
    static func runAndExit() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as Failure {
            FileHandle.standardError.write(Data("widget-replay: \(failure.description)\n".utf8))
            Foundation.exit(failure.exitCode)
        } catch {
            exit(withError: error)
        }
    }
}
