import Glibc

/// The proxies whose `X-Forwarded-For` the server believes, as address ranges (CIDR).
///
/// A request whose TCP peer is in a range comes from the right-most address of its
/// `X-Forwarded-For` that is not itself in a range (each proxy appends the address it was
/// reached from, so entries left of the first untrusted one were written by the client and
/// prove nothing). From any other peer the header is ignored. Empty: no proxy is trusted.
public struct TrustedProxies: Sendable, Equatable {
    /// One range, in IPv6 form (an IPv4 range is mapped into `::ffff:0:0/96`, so an
    /// IPv4-mapped peer matches it too).
    struct AddressRange: Sendable, Equatable {
        let address: [UInt8]
        let prefixLength: Int

        func contains(_ candidate: [UInt8]) -> Bool {
            let whole = prefixLength / 8
            guard candidate[..<whole] == address[..<whole] else { return false }
            let rest = prefixLength % 8
            guard rest > 0 else { return true }
            let mask = UInt8(0xFF) << (8 - rest)
            return candidate[whole] & mask == address[whole] & mask
        }
    }

    private var ranges: [AddressRange] = []

    /// Trusts no proxy.
    public init() {}

    /// Whether no proxy is trusted.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Adds a range: `10.0.0.0/8`, `2001:db8::/32`, or one address (`192.0.2.10`, `::1`).
    /// False (and nothing added) when `cidr` is neither.
    public mutating func add(_ cidr: String) -> Bool {
        let parts = cidr.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let host = String(parts[0])
        guard let (address, isIPv4) = Self.bytes(host) else { return false }
        let width = isIPv4 ? 32 : 128
        var length = width
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...width).contains(given), parts[1].allSatisfy(\.isASCII) else { return false }
            length = given
        }
        ranges.append(AddressRange(address: address, prefixLength: length + (isIPv4 ? 96 : 0)))
        return true
    }

    /// Whether `address` (numeric) is in a trusted range.
    public func contains(_ address: SocketAddress) -> Bool {
        guard !ranges.isEmpty, let (bytes, _) = Self.bytes(address.host) else { return false }
        return trusts(bytes)
    }

    /// The client a request from `peer` was forwarded for: nil when `peer` is not trusted or
    /// the header names no usable address (the peer is then the client). `forwardedFor` is
    /// every `X-Forwarded-For` field value in order (port 0 in the result: a proxy does not
    /// forward the client's port).
    public func client(of peer: SocketAddress, forwardedFor: [String]) -> SocketAddress? {
        guard contains(peer) else { return nil }
        var client: SocketAddress?
        for entry in forwardedFor.flatMap({ $0.split(separator: ",") }).reversed() {
            // A malformed entry was written by whoever sent it to the last trusted hop: stop
            // there, with that hop (or the peer) as the client.
            guard let host = Self.host(of: entry), let (bytes, _) = Self.bytes(host),
                let address = SocketAddress(host: host, port: 0)
            else { break }
            client = address
            if !trusts(bytes) { break }
        }
        return client
    }

    private func trusts(_ bytes: [UInt8]) -> Bool {
        ranges.contains { $0.contains(bytes) }
    }

    /// The address part of one `X-Forwarded-For` entry: `192.0.2.1`, `192.0.2.1:4711`,
    /// `2001:db8::1` or `[2001:db8::1]:4711`, blanks around it ignored.
    static func host(of entry: Substring) -> String? {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = entry.firstIndex(where: { !blank($0) }), let last = entry.lastIndex(where: { !blank($0) }) else { return nil }
        let text = String(entry[first...last])
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        let colons = text.filter { $0 == ":" }.count
        if colons == 1, let colon = text.firstIndex(of: ":") { return String(text[..<colon]) }
        return text.isEmpty ? nil : text
    }

    /// 16 bytes of a numeric address (IPv4 mapped into IPv6) and whether it was IPv4.
    static func bytes(_ host: String) -> ([UInt8], Bool)? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return ([UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: &v4) { Array($0) }, true)
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return (withUnsafeBytes(of: &v6) { Array($0) }, false) }
        return nil
    }
}
