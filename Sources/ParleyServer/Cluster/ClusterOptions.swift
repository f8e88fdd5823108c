import ParleyPlatform
import ParleyWire

/// How this server joins other Parley nodes: the Redis bus (`--redis`, `PARLEY_REDIS`, the
/// config file's `"redis"`) and this node's name on it (`--node-id`).
public struct ClusterOptions: Sendable, Equatable {
    /// The bus, as given (`redis://[user:password@]host:port[/db]`); nil runs one node alone.
    public var redis: String? = nil
    /// This node's name on the bus; nil is the host name and the port.
    public var nodeID: String? = nil

    /// Creates the defaults (no bus).
    public init() {}

    /// The bus address parsed; nil without one (the flag already refused a malformed one).
    public var redisURL: RedisURL? { redis.flatMap { try? RedisURL(parsing: $0) } }

    /// The node id this server uses: the given one, else `hostname:port`.
    public func resolvedNodeID(port: Int) -> String {
        if let nodeID, !nodeID.isEmpty { return nodeID }
        return "\(Self.hostName()):\(port)"
    }

    /// Checks a `--node-id` value: printable ASCII without spaces, at most 128 bytes (it is
    /// part of Redis key names and log lines).
    static func validNodeID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 128 && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }
}
