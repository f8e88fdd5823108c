/// A parsed `ws://` or `wss://` URL: host, port, TLS or not, and the request target (path
/// plus query).
public struct WebSocketURL: Sendable, Equatable {
    /// The host name or literal (IPv6 without brackets).
    public let host: String
    /// The port (80 for `ws://`, 443 for `wss://` when the URL names none).
    public let port: Int
    /// Whether the URL is `wss://`: the connection runs TLS.
    public let isSecure: Bool
    /// Path and query, e.g. `/app/key?protocol=7`; at least `/`.
    public let target: String

    /// Parses `ws://` or `wss://host[:port][/path][?query]`; nil for anything else.
    public init?(_ text: String) {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("ws://") || lowered.hasPrefix("wss://") else { return nil }
        isSecure = lowered.hasPrefix("wss://")
        let rest = text.dropFirst(isSecure ? 6 : 5)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if target.isEmpty || target.first == "?" { target = "/" + target }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        var host: Substring
        var portText: Substring?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { return nil }
        var port = isSecure ? 443 : 80
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else { return nil }
            port = value
        }
        self.host = String(host)
        self.port = port
        self.target = target
    }

    /// The `Host` header value: host (bracketed if IPv6) plus `:port` unless it is the
    /// scheme's default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }
}
