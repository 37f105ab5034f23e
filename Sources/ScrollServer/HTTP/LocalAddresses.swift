#if canImport(Glibc)
    import Glibc
#endif

/// The addresses of this machine's interfaces, as text: the names a server bound to every address
/// (`0.0.0.0`, `::`) may be reached by. Read once at start.
enum LocalAddresses {
    static func all() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        var next = first
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else {
                continue
            }
            // A link-local IPv6 address names its interface after a %: not part of a Host header.
            let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            found.append(String(String(decoding: bytes, as: UTF8.self).prefix { $0 != "%" }))
        }
        return found
    }
}
