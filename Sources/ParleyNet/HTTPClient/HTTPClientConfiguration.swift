/// Settings of an ``HTTPClient``.
public struct HTTPClientConfiguration: Sendable {
    /// Give up when no byte moves for this long (connecting, TLS, waiting for the answer).
    public var timeout: Duration
    /// Largest response body accepted.
    public var maxResponseBytes: Int
    /// Idle keep-alive connections kept per server; 0 opens a connection per request
    /// (sent with `Connection: close`).
    public var maxIdleConnectionsPerServer: Int
    /// A parked connection is closed after this long unused (shorter than servers' keep-alive).
    public var idleConnectionTimeout: Duration
    /// The TLS context of `https://` requests; nil trusts the system's CA certificates
    /// (``TLSContext/systemClient()``).
    public var tls: TLSContext?

    /// Creates a configuration.
    public init(
        timeout: Duration = .seconds(30), maxResponseBytes: Int = 64 << 20, maxIdleConnectionsPerServer: Int = 4,
        idleConnectionTimeout: Duration = .seconds(20), tls: TLSContext? = nil
    ) {
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.maxIdleConnectionsPerServer = maxIdleConnectionsPerServer
        self.idleConnectionTimeout = idleConnectionTimeout
        self.tls = tls
    }
}
