/// Which web origins may call an API from a browser, and the CORS header fields that tell
/// the browser so (the Fetch standard's CORS protocol).
///
/// An allowed origin is echoed in `Access-Control-Allow-Origin`, never `*`; credentials
/// travel in `Authorization`, which the preflight allows explicitly, so no
/// `Access-Control-Allow-Credentials` is sent. A disallowed origin gets no CORS fields at
/// all and the browser keeps the answer from the page.
public struct CORSPolicy: Sendable, Equatable {
    /// Allowed origins, normalised (see ``normalize(_:)``).
    public private(set) var origins: Set<String>
    /// Whether every loopback origin is allowed: `http(s)://localhost`, `127.0.0.1` or
    /// `[::1]`, any port (development).
    public var allowsLoopback: Bool
    /// Request header fields a page may send (`Access-Control-Allow-Headers`).
    public var allowedHeaders: [String] = ["Authorization", "Content-Type", "X-Parley-App"]
    /// Response header fields a page may read beyond the safelisted ones.
    public var exposedHeaders: [String] = ["Retry-After", "WWW-Authenticate"]
    /// How long a browser may cache a preflight answer, in seconds.
    public var maxAgeSeconds: Int = 600

    /// A policy allowing `origins` (already validated) and, with `allowsLoopback`, every loopback origin.
    public init(origins: some Sequence<String> = [String](), allowsLoopback: Bool = false) {
        self.origins = Set(origins.compactMap(Self.normalize))
        self.allowsLoopback = allowsLoopback
    }

    /// A policy that allows what either allows.
    public func union(_ other: CORSPolicy) -> CORSPolicy {
        var merged = self
        merged.origins.formUnion(other.origins)
        merged.allowsLoopback = allowsLoopback || other.allowsLoopback
        return merged
    }

    /// Whether the policy allows no origin at all.
    public var isEmpty: Bool { origins.isEmpty && !allowsLoopback }

    /// Whether a request's `Origin` value is allowed.
    public func allows(_ origin: String) -> Bool {
        guard let normalized = Self.normalize(origin) else { return false }
        return origins.contains(normalized) || (allowsLoopback && Self.isLoopback(normalized))
    }

    /// The fields answering a preflight from `origin` for a resource that accepts `methods`,
    /// or nil when the origin is not allowed (answer without CORS fields).
    public func preflightHeaders(origin: String, methods: [HTTPMethod]) -> HTTPHeaders? {
        guard allows(origin) else { return nil }
        var headers = HTTPHeaders()
        headers.add("Access-Control-Allow-Origin", origin)
        headers.add("Access-Control-Allow-Methods", methods.map(\.rawValue).joined(separator: ", "))
        headers.add("Access-Control-Allow-Headers", allowedHeaders.joined(separator: ", "))
        headers.add("Access-Control-Max-Age", String(maxAgeSeconds))
        headers.add("Vary", "Origin")
        return headers
    }

    /// The fields to add to an actual response for a request from `origin`: the echoed
    /// origin when allowed, and `Vary: Origin` either way (the answer depends on it).
    public func responseHeaders(origin: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if allows(origin) {
            headers.add("Access-Control-Allow-Origin", origin)
            if !exposedHeaders.isEmpty { headers.add("Access-Control-Expose-Headers", exposedHeaders.joined(separator: ", ")) }
        }
        headers.add("Vary", "Origin")
        return headers
    }

    /// An origin in the form browsers send it: lowercase `scheme://host[:port]`, the
    /// scheme's default port left out, no path; nil when `text` is not an http(s) origin.
    public static func normalize(_ text: String) -> String? {
        var value = text.lowercased()
        if value.hasSuffix("/") { value.removeLast() }
        let scheme: String
        if value.hasPrefix("http://") {
            scheme = "http"
        } else if value.hasPrefix("https://") {
            scheme = "https"
        } else {
            return nil
        }
        let authority = value.dropFirst(scheme.count + 3)
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ \t".contains($0) }) else { return nil }
        let (host, port) = splitPort(authority)
        guard !host.isEmpty else { return nil }
        if let port {
            guard let number = Int(port), (1...65535).contains(number) else { return nil }
            if (scheme == "http" && number == 80) || (scheme == "https" && number == 443) {
                return "\(scheme)://\(host)"
            }
            return "\(scheme)://\(host):\(number)"
        }
        return "\(scheme)://\(host)"
    }

    /// Whether a normalised origin's host is this machine.
    static func isLoopback(_ normalized: String) -> Bool {
        let authority = normalized.dropFirst(normalized.hasPrefix("https://") ? 8 : 7)
        let (host, _) = splitPort(authority)
        return host == "localhost" || host == "127.0.0.1" || host == "[::1]"
    }

    /// Host and port of an authority; an IPv6 literal keeps its brackets.
    private static func splitPort(_ authority: Substring) -> (host: Substring, port: Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return ("", nil) }
            let host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty { return (host, nil) }
            guard rest.hasPrefix(":") else { return ("", nil) }
            return (host, rest.dropFirst())
        }
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }
}
