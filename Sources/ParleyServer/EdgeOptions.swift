import ParleyNet
import ParleyWire

/// What a stranger can make the server hold: connection caps and request deadlines, from
/// `parley serve` flags or the config file's `"http"` object (a flag wins). nil everywhere
/// means "not set here": the config file's value, else the default, applies.
public struct EdgeOptions: Sendable, Equatable {
    /// Most connections open at once (HTTP and WebSocket); more get 503 and `Retry-After`.
    /// Default: derived from the open-file limit (``defaultMaxConnections(fileLimit:)``).
    public var maxConnections: Int? = nil
    /// Most connections from one client address (IPv6: one /64); 0 turns the cap off. Default 256.
    public var maxConnectionsPerIP: Int? = nil
    /// Whether the per-address cap applies to loopback clients too. Default false: local
    /// load generators and test harnesses open thousands of connections from 127.0.0.1.
    public var limitLoopback: Bool? = nil
    /// Seconds a request head may take from its first byte. Default 10.
    public var headTimeoutSeconds: Int? = nil
    /// Seconds a request body may take from the end of its head; 0: no bound. Default 300.
    public var bodyTimeoutSeconds: Int? = nil
    /// Least average body rate in bytes per second after a grace period as long as the head
    /// timeout; 0: no bound. Default 1024.
    public var minBodyRate: Int? = nil
    /// Address ranges (CIDR) of proxies whose `X-Forwarded-For` names the client; nil: the
    /// config file's `trusted_proxies`, else none.
    public var trustedProxies: [String]? = nil

    /// The defaults the fields fall back to.
    public static let defaultMaxConnectionsPerIP = 256
    public static let defaultHeadTimeoutSeconds = 10
    public static let defaultBodyTimeoutSeconds = 300
    public static let defaultMinBodyRate = 1024

    /// Creates options with nothing set.
    public init() {}

    /// The global cap a server with `fileLimit` open files gets by default: the limit less a
    /// tenth (at least 64) kept for the database, attachments, webhooks and the sockets of
    /// refused connections while they are answered.
    public static func defaultMaxConnections(fileLimit: Int) -> Int {
        max(16, fileLimit - max(64, fileLimit / 10))
    }

    /// These options with every field still unset taken from `other` (flags over the file).
    public func filling(from other: EdgeOptions) -> EdgeOptions {
        var merged = self
        merged.maxConnections = maxConnections ?? other.maxConnections
        merged.maxConnectionsPerIP = maxConnectionsPerIP ?? other.maxConnectionsPerIP
        merged.limitLoopback = limitLoopback ?? other.limitLoopback
        merged.headTimeoutSeconds = headTimeoutSeconds ?? other.headTimeoutSeconds
        merged.bodyTimeoutSeconds = bodyTimeoutSeconds ?? other.bodyTimeoutSeconds
        merged.minBodyRate = minBodyRate ?? other.minBodyRate
        merged.trustedProxies = trustedProxies ?? other.trustedProxies
        return merged
    }
}

extension EdgeOptions {
    /// The `"http"` object of a config file: `max_connections`, `max_connections_per_ip`,
    /// `limit_loopback`, `head_timeout`, `body_timeout`, `min_body_rate`. Absent: nothing set.
    public init(configFile root: JSONValue) throws(ServerStartError) {
        self.init()
        guard let section = root["http"], section != .null else { return }
        guard let object = section.objectValue else { throw Self.invalid("$.http", "must be an object") }
        for key in object.keys where !Self.fileKeys.contains(key) {
            throw Self.invalid("$.http.\(key)", "unknown setting (known: \(Self.fileKeys.joined(separator: ", ")))")
        }
        maxConnections = try Self.int(section, "max_connections", 1...10_000_000)
        maxConnectionsPerIP = try Self.int(section, "max_connections_per_ip", 0...10_000_000)
        if let value = section["limit_loopback"], value != .null {
            guard let flag = value.boolValue else { throw Self.invalid("$.http.limit_loopback", "must be true or false") }
            limitLoopback = flag
        }
        headTimeoutSeconds = try Self.int(section, "head_timeout", 1...3600)
        bodyTimeoutSeconds = try Self.int(section, "body_timeout", 0...86_400)
        minBodyRate = try Self.int(section, "min_body_rate", 0...(1 << 30))
        if let value = section["trusted_proxies"], value != .null {
            guard let list = value.arrayValue else { throw Self.invalid("$.http.trusted_proxies", "must be an array of address ranges") }
            trustedProxies = try list.enumerated().map { (i, item) throws(ServerStartError) in
                guard let text = item.stringValue, Self.trustedProxies([text]) != nil else {
                    throw Self.invalid("$.http.trusted_proxies[\(i)]", "must be an address or CIDR range (10.0.0.0/8, 2001:db8::/32)")
                }
                return text
            }
        }
    }

    /// The ranges `cidrs` name, or nil when one is not an address or CIDR range.
    static func trustedProxies(_ cidrs: [String]) -> TrustedProxies? {
        var proxies = TrustedProxies()
        for cidr in cidrs {
            guard proxies.add(cidr) else { return nil }
        }
        return proxies
    }

    static let fileKeys = [
        "max_connections", "max_connections_per_ip", "limit_loopback", "head_timeout", "body_timeout",
        "min_body_rate", "trusted_proxies"
    ]

    private static func int(_ section: JSONValue, _ key: String, _ range: ClosedRange<Int>) throws(ServerStartError) -> Int? {
        guard let value = section[key], value != .null else { return nil }
        guard let number = value.intValue, range.contains(number) else {
            throw invalid("$.http.\(key)", "must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    private static func invalid(_ path: String, _ message: String) -> ServerStartError {
        ServerStartError(code: "config_invalid", message: "\(path) \(message)")
    }
}

extension EdgeOptions {
    /// Sets the HTTP server's caps and deadlines from these options and their defaults.
    func apply(to configuration: inout HTTPServerConfiguration, fileLimit: Int) {
        configuration.maxConnections = maxConnections ?? Self.defaultMaxConnections(fileLimit: fileLimit)
        let perIP = maxConnectionsPerIP ?? Self.defaultMaxConnectionsPerIP
        configuration.maxConnectionsPerAddress = perIP > 0 ? perIP : nil
        configuration.limitLoopbackConnections = limitLoopback ?? false
        let head = headTimeoutSeconds ?? Self.defaultHeadTimeoutSeconds
        configuration.requestHeadTimeout = .seconds(head)
        configuration.requestBodyGracePeriod = .seconds(head)
        let body = bodyTimeoutSeconds ?? Self.defaultBodyTimeoutSeconds
        configuration.requestBodyTimeout = body > 0 ? .seconds(body) : nil
        configuration.minimumBodyRate = minBodyRate ?? Self.defaultMinBodyRate
        configuration.trustedProxies = trustedProxies.flatMap(Self.trustedProxies) ?? TrustedProxies()
    }
}
