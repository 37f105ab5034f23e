/// One outgoing message's bytes behind `headroom` spare bytes, held by reference.
/// libwebsockets writes its frame header into the headroom, so a room can encode a frame
/// or event batch once and hand this very buffer to every client's write: no copy per client.
/// Sharing is safe because writes happen one after another on the service thread, and lws
/// keeps the unsent rest of a partial write itself.
package final class SharedPayload {
    package let headroom: Int
    package let count: Int
    private let storage: UnsafeMutableRawPointer

    /// Copies `source` once, after `headroom` bytes.
    package init(_ source: some Collection<UInt8>, headroom: Int) {
        self.headroom = headroom
        count = source.count
        storage = .allocate(byteCount: headroom + max(count, 1), alignment: 16)
        UnsafeMutableRawBufferPointer(start: storage + headroom, count: count).copyBytes(from: source)
    }

    /// Written in place by `write`, which is given room for `capacity` bytes and says how many it
    /// wrote.
    package init(headroom: Int, capacity: Int, write: (UnsafeMutableRawBufferPointer) -> Int) {
        self.headroom = headroom
        storage = .allocate(byteCount: headroom + max(capacity, 1), alignment: 16)
        count = write(UnsafeMutableRawBufferPointer(start: storage + headroom, count: capacity))
        precondition(count <= capacity, "wrote past the payload")
    }

    package convenience init(text: String, headroom: Int) {
        self.init(text.utf8, headroom: headroom)
    }

    deinit { storage.deallocate() }

    /// The message itself; `bytes - headroom` is free for a header.
    package var bytes: UnsafeMutablePointer<UInt8> {
        (storage + headroom).assumingMemoryBound(to: UInt8.self)
    }

    /// Copies of the message (a cluster's owner sends them to its relays).
    package var byteArray: [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: count)) }
    package var text: String { String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) }
}
