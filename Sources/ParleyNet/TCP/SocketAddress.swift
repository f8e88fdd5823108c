import CLinux
import Glibc
import ParleySystem

/// A numeric IPv4 or IPv6 address and port.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address in numeric form (`127.0.0.1`, `::1`).
    public let host: String
    /// The TCP port.
    public let port: Int
    let family: Int32

    /// Creates an address from a numeric host; nil if `host` is not an IPv4/IPv6 literal.
    public init?(host: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, bare, &v6) == 1 {
            family = AF_INET6
        } else {
            return nil
        }
        self.host = bare
        self.port = port
    }

    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Resolves a host name or literal with `getaddrinfo` (blocking; avoid on a loop thread
    /// for names that are not literals or in /etc/hosts).
    public static func resolve(host: String, port: Int) throws(NetError) -> [SocketAddress] {
        if let literal = SocketAddress(host: host, port: port) { return [literal] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &result)
        guard rc == 0, let first = result else {
            throw NetError(.resolveFailed, "\(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = SocketAddress(entry.pointee.ai_addr) { addresses.append(address) }
            cursor = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw NetError(.resolveFailed, "\(host): no addresses") }
        // IPv4 first: loopback test servers commonly bind 127.0.0.1 only.
        return addresses.filter { $0.family == AF_INET } + addresses.filter { $0.family == AF_INET6 }
    }

    init?(_ address: UnsafePointer<sockaddr>?) {
        guard let address else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let (host, port) = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var addr = v4.pointee.sin_addr
                inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
                return (Self.string(text), Int(UInt16(bigEndian: v4.pointee.sin_port)))
            }
            self.init(host: host, port: port)
        case AF_INET6:
            let (host, port) = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var addr = v6.pointee.sin6_addr
                inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count))
                return (Self.string(text), Int(UInt16(bigEndian: v6.pointee.sin6_port)))
            }
            self.init(host: host, port: port)
        default:
            return nil
        }
    }

    private static func string(_ text: [CChar]) -> String {
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with this address as a `sockaddr` and its length.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        if family == AF_INET6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    static func peer(of socket: borrowing FileDescriptor) -> SocketAddress? {
        socket.withRawValue { query($0, getpeername) }
    }

    static func local(of socket: borrowing FileDescriptor) -> SocketAddress? {
        socket.withRawValue { query($0, getsockname) }
    }

    private static func query(
        _ fd: Int32,
        _ call: (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?) -> Int32
    )
        -> SocketAddress?
    {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                guard call(fd, address, &length) == 0 else { return nil }
                return SocketAddress(UnsafePointer(address))
            }
        }
    }

    /// A new non-blocking, close-on-exec TCP socket.
    static func openSocket(family: Int32) throws(NetError) -> FileDescriptor {
        do {
            return try FileDescriptor.opening("socket") {
                socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
        } catch {
            throw NetError(error)
        }
    }
}
