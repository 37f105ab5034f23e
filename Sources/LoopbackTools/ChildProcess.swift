import Foundation
import Glibc

/// A launched executable with its stdout and stderr collected, whose exit can be awaited
/// with a deadline (a thread blocked in waitpid() signals a semaphore: no polling).
///
/// Spawned with posix_spawn rather than Foundation's `Process` because the child must start
/// with an empty signal mask: test code runs on threads that block nearly every signal, a
/// child inherits that mask, and a server that inherited it would never see SIGTERM.
public final class ChildProcess {
    public let output = OutputCollector()
    public let pid: pid_t
    private let exitSignal = DispatchSemaphore(value: 0)
    private var exited = false
    /// waitpid's status, written by the waiting thread before it signals `exitSignal`.
    private let waitStatus = StatusBox()

    /// How the process ended.
    public enum Exit: Equatable, Sendable, CustomStringConvertible {
        case code(Int32)
        case signal(Int32)
        public var description: String {
            switch self {
            case .code(let c): "exit status \(c)"
            case .signal(let s): "killed by signal \(s)"
            }
        }
    }

    /// - Parameter collectsStandardError: false leaves the child this process's stderr (a tool
    ///   whose server's warnings should reach its user); `output` then holds stdout alone.
    public init(
        executable: String, arguments: [String], environment: [String: String]? = nil,
        workingDirectory: String? = nil, collectsStandardError: Bool = true
    ) throws {
        let stdout = try Self.makePipe(), stderr = collectsStandardError ? try Self.makePipe() : nil
        defer {
            close(stdout.write)
            if let stderr { close(stderr.write) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr.write, 2) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t(), defaults = sigset_t()
        sigemptyset(&emptyMask)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environment = environment ?? ProcessInfo.processInfo.environment
        // Glibc's Swift module lacks posix_spawn_file_actions_addchdir_np: `env -C` changes
        // directory and then execs, so the pid (and its signals) stay the child's.
        let program = workingDirectory == nil ? executable : "/usr/bin/env"
        let command = workingDirectory.map { ["env", "-C", $0, executable] } ?? [executable]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(stdout.read)
            if let stderr { close(stderr.read) }
            throw LaunchError.launchFailed(executable: executable, reason: String(cString: strerror(status)))
        }
        self.pid = pid
        output.attach(FileHandle(fileDescriptor: stdout.read, closeOnDealloc: true))
        if let stderr { output.attach(FileHandle(fileDescriptor: stderr.read, closeOnDealloc: true)) }

        let thread = Thread { [exitSignal, waitStatus, pid] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            waitStatus.value = status
            exitSignal.signal()
        }
        thread.name = "ChildProcess.wait(\(pid))"
        thread.start()
    }

    /// True once the process has exited (waits for nothing).
    public var hasExited: Bool { waitForExit(timeout: 0) }

    /// How it ended; nil while it runs.
    public var exit: Exit? {
        guard hasExited else { return nil }
        let status = waitStatus.value
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros Swift cannot see.
        return status & 0x7F == 0 ? .code((status >> 8) & 0xFF) : .signal(status & 0x7F)
    }

    /// Waits up to `timeout` seconds for the process to exit; true if it has. Once it has, also
    /// for its last lines to be read (at most a second more: a child of its own may keep its pipes
    /// open), so that `output` holds what it wrote before it exited.
    @discardableResult
    public func waitForExit(timeout: Double) -> Bool {
        if !exited && exitSignal.wait(timeout: .now() + max(timeout, 0)) == .success {
            exited = true
            output.waitForEnd(timeout: 1)
        }
        return exited
    }

    /// The exit code once the process has exited by itself (nil while it runs, or when a
    /// signal ended it): waitpid's WIFEXITED and WEXITSTATUS, which Swift does not import.
    public var exitCode: Int32? {
        if case .code(let c) = exit { return c }
        return nil
    }

    /// Sends `signal` unless the process has already been reaped (its pid may be reused then).
    public func send(signal: Int32) {
        if !hasExited { kill(pid, signal) }
    }

    /// SIGTERM, then SIGKILL if it has not exited within `grace` seconds.
    public func stop(grace: Double = 5) {
        send(signal: SIGTERM)
        if !waitForExit(timeout: grace) {
            send(signal: SIGKILL)
            waitForExit(timeout: 5)
        }
    }

    /// A one-way channel whose ends are close-on-exec from birth (not pipe + fcntl: tests
    /// spawn in parallel, and a child spawned in between would inherit the write end and
    /// hold off EOF). A socketpair because Glibc's Swift module lacks pipe2. Only the
    /// dup2'd copies reach the intended child.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw LaunchError.launchFailed(executable: "(pipe)", reason: String(cString: strerror(errno)))
        }
        return (fds[0], fds[1])
    }
}

/// Handed from the waiting thread to the test's; the semaphore orders the write before reads.
private final class StatusBox: @unchecked Sendable {
    var value: Int32 = 0
}
