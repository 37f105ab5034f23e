/// Which cores a process runs on (util-linux taskset): a benchmark pins the server under test to
/// one core and the load generator to another, so neither takes the other's.
public enum CPUAffinity {
    static let taskset = "/usr/bin/taskset"

    /// A launcher (`ServerProcess(launcher:)`, `MirrorServer(launcher:)`) that starts its program
    /// on `cpus` only ("0", "0-1"); taskset execs it, so the pid stays the program's.
    public static func launcher(cpus: String) -> [String] { [taskset, "-c", cpus] }

    /// Moves every thread of process `pid` to `cpus` (threads it starts later inherit it).
    public static func pin(pid: Int32, cpus: String) throws {
        let child = try ChildProcess(executable: taskset, arguments: ["-a", "-p", "-c", cpus, String(pid)])
        guard child.waitForExit(timeout: 10), child.exitCode == 0 else {
            child.stop()
            throw LaunchError.launchFailed(executable: "taskset -p -c \(cpus) \(pid)", reason: child.output.text)
        }
    }
}
