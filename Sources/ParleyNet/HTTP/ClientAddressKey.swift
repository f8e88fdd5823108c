import Glibc

/// What per-client connection counts are kept by: an IPv4 address, or the /64 prefix of an
/// IPv6 address (one subscriber commonly holds a whole /64, so counting single IPv6
/// addresses would bound nothing). IPv4-mapped IPv6 addresses count as their IPv4 address.
struct ClientAddressKey: Hashable, Sendable {
    /// The IPv4 address (in the low 32 bits) or the IPv6 prefix.
    let bits: UInt64
    let isIPv6: Bool
    /// Whether the client is on this machine (127.0.0.0/8 or ::1).
    let isLoopback: Bool

    init?(_ address: SocketAddress) {
        if address.family == AF_INET {
            var v4 = in_addr()
            guard inet_pton(AF_INET, address.host, &v4) == 1 else { return nil }
            self.init(ipv4: UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address.host, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            self.init(ipv4: bytes[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            return
        }
        self.init(
            bits: bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }, isIPv6: true,
            isLoopback: bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1)
    }

    private init(ipv4: UInt32) {
        self.init(bits: UInt64(ipv4), isIPv6: false, isLoopback: ipv4 >> 24 == 127)
    }

    private init(bits: UInt64, isIPv6: Bool, isLoopback: Bool) {
        self.bits = bits
        self.isIPv6 = isIPv6
        self.isLoopback = isLoopback
    }
}
