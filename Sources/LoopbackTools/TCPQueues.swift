/// What the kernel holds for loopback TCP connections, read from /proc/net/tcp and tcp6 (all of
/// this machine's sockets): a load tool sees there the server's side of its own connections.
public enum TCPQueues {
    /// For each socket at local port `port` that has a peer: the peer's port, and the bytes the
    /// socket holds that the peer has not taken (tx_queue: written, not yet acknowledged).
    public static func sendQueues(port: Int) -> [Int: Int] {
        ["/proc/net/tcp", "/proc/net/tcp6"].reduce(into: [:]) { queues, table in
            if let text = ProcessUsage.read(table) { queues.merge(sendQueues(in: text, port: port)) { a, _ in a } }
        }
    }

    /// `sendQueues` in one table's text: a header line, then a socket a line, as
    /// `sl local_address rem_address st tx_queue:rx_queue …`, addresses as `HEXADDR:HEXPORT`.
    static func sendQueues(in table: String, port: Int) -> [Int: Int] {
        var queues: [Int: Int] = [:]
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4, let local = fields[1].split(separator: ":").last,
                let remote = fields[2].split(separator: ":").last, Int(local, radix: 16) == port,
                let peer = Int(remote, radix: 16), peer != 0,
                let queued = fields[4].split(separator: ":").first.flatMap({ Int($0, radix: 16) })
            else { continue }
            queues[peer] = queued
        }
        return queues
    }
}
