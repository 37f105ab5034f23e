import Glibc

/// CPU time, resident memory and open descriptors of this process or another (a server under
/// load or soak), read from getrusage and /proc.
public enum ProcessUsage {
    /// This process's user + system CPU seconds.
    public static func ownCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Another process's user + system CPU seconds (/proc/PID/stat fields 14 and 15).
    public static func cpu(pid: Int32) -> Double? {
        guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after "(comm)" start at field 3 (state); utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident memory in KiB (/proc/PID/status VmRSS).
    public static func residentKiB(pid: Int32) -> Int? { statusKiB(pid: pid, "VmRSS:") }

    /// The highest resident memory in KiB since the process started or `resetPeakResident`
    /// (/proc/PID/status VmHWM): a peak between two readings counts too.
    public static func peakResidentKiB(pid: Int32) -> Int? { statusKiB(pid: pid, "VmHWM:") }

    /// Starts the peak (`peakResidentKiB`) again from the resident memory now (/proc/PID/clear_refs,
    /// "5"); false where that cannot be written (another user's process, an old kernel).
    @discardableResult
    public static func resetPeakResident(pid: Int32) -> Bool {
        let fd = open("/proc/\(pid)/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    private static func statusKiB(pid: Int32, _ field: String) -> Int? {
        guard let status = read("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.dropFirst(field.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// The CPUs it may run on, as /proc/PID/status lists them ("0", "0-1", "1,3").
    public static func allowedCPUs(pid: Int32) -> String? {
        guard let status = read("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed_list:") {
            return String(line.dropFirst("Cpus_allowed_list:".count).drop { $0 == " " || $0 == "\t" })
        }
        return nil
    }

    /// Open file descriptors (entries of /proc/PID/fd): sockets, files, pipes, epoll; or only
    /// those of files under `path` (where each entry's link points).
    public static func openFiles(pid: Int32, under path: String? = nil) -> Int? {
        guard let directory = opendir("/proc/\(pid)/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            if let path, !(target("/proc/\(pid)/fd/\(name)")?.hasPrefix(path + "/") ?? false) { continue }
            count += 1
        }
        return count
    }

    private static func target(_ link: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(link, &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// Whether the process exists and has not exited (a zombie, exited but not yet reaped, has not).
    public static func isRunning(pid: Int32) -> Bool {
        guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state != nil && state != "Z" && state != "X"
    }

    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
