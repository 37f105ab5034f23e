/// What the kernel holds for one loopback TCP connection, read from /proc/net/tcp and tcp6 (all
/// of this machine's sockets): a load tool sees there the server's side of its own connection.
public enum TCPQueues {
    /// Bytes the socket at local port `port` holds for its peer at port `peerPort` that the peer
    /// has not taken (tx_queue: written, not yet acknowledged); nil when there is no such socket.
    public static func sendQueue(port: Int, peerPort: Int) -> Int? {
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            if let text = ProcessUsage.read(table), let queued = sendQueue(in: text, port: port, peerPort: peerPort) {
                return queued
            }
        }
        return nil
    }

    /// `sendQueue` in one table's text: a header line, then a socket a line, as
    /// `sl local_address rem_address st tx_queue:rx_queue …`, addresses as `HEXADDR:HEXPORT`.
    static func sendQueue(in table: String, port: Int, peerPort: Int) -> Int? {
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4, let local = fields[1].split(separator: ":").last,
                let remote = fields[2].split(separator: ":").last, Int(local, radix: 16) == port,
                Int(remote, radix: 16) == peerPort, let queued = fields[4].split(separator: ":").first
            else { continue }
            return Int(queued, radix: 16)
        }
        return nil
    }
}
