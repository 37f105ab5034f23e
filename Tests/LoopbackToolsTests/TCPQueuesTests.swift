import Testing

@testable import LoopbackTools

/// /proc/net/tcp's lines (Linux's `tcp4_seq_show` format) read for the server's send queues.
struct TCPQueuesTests {
    static let table = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:4718 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1589 1 0 100 0 0 10 0
           1: 0100007F:4718 0100007F:C8CC 01 0040A2F0:00000000 01:00000014 00000000     0        0 2201 1 0 20 4 30 10 -1
           2: 0100007F:C8CC 0100007F:4718 01 00000000:00020000 00:00000000 00000000     0        0 2202 1 0 20 4 30 10 -1
           3: 0100007F:4718 0100007F:C8CD 01 00000000:00000000 00:00000000 00000000     0        0 2203 1 0 20 4 30 10 -1
        """

    @Test(
        "the server's sockets (port 18200 = 0x4718) by their peers' ports: 51404 (0xC8CC) holds 0x40A2F0 bytes, 51405 none; not the listener"
    )
    func serverSide() {
        #expect(TCPQueues.sendQueues(in: Self.table, port: 18200) == [51404: 4_236_016, 51405: 0])
        // The client's side sends nothing (its receive queue is full: 0x20000 = 131,072 B).
        #expect(TCPQueues.sendQueues(in: Self.table, port: 51404) == [18200: 0])
    }

    @Test("no socket at the port, or no table: none")
    func absent() {
        #expect(TCPQueues.sendQueues(in: Self.table, port: 1).isEmpty)
        #expect(TCPQueues.sendQueues(in: "", port: 18200).isEmpty)
    }
}
