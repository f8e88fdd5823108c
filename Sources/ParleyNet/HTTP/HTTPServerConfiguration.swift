import ParleyWire

/// Settings of an ``HTTPServer``.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric address to bind (`127.0.0.1`, `0.0.0.0`, `::`).
    public var host: String
    /// Port to bind; 0 picks a free one.
    public var port: Int
    /// Listen backlog.
    public var backlog: Int
    /// How accepted connections are spread over loops.
    public var distribution: TCPServer.Distribution
    /// Called on the loop once per answered request (and accepted WebSocket upgrade); nil: no access log.
    public var accessLog: (@Sendable (HTTPAccessRecord) -> Void)? = nil
    /// Whether to keep a latency histogram per route (``HTTPServer/routeLatency``).
    public var recordsRouteLatency: Bool = false
    /// Whether the listeners may join another process's SO_REUSEPORT group on the port (a
    /// zero-downtime handover); off, a port in use by anything else fails ``HTTPServer/start()``.
    public var joinOtherProcesses: Bool = false
    /// Parser limits; `maxBodySize` is the default body limit (routes may override).
    public var limits: HTTPRequestParser.Limits
    /// Close a connection after this long without traffic (keep-alive idle, slow clients).
    public var idleTimeout: Duration
    /// Longest time from the first byte of a request to the end of its head; slower
    /// clients (slowloris) get 408 and are closed. Traffic does not reset it, unlike the
    /// idle timeout.
    public var requestHeadTimeout: Duration
    /// Longest time from the end of a request's head to the end of its body (408 and close
    /// past it); nil: no total bound. Traffic does not reset it.
    public var requestBodyTimeout: Duration?
    /// Least average rate a body must arrive at, in bytes per second, once
    /// `requestBodyGracePeriod` has passed (408 and close below it); 0: no rate bound.
    public var minimumBodyRate: Int
    /// Time after a head during which its body may arrive at any rate.
    public var requestBodyGracePeriod: Duration
    /// Most connections open at once; more are answered 503 with `Retry-After` and closed.
    /// nil: no cap (the listener still sheds connections when descriptors run out).
    public var maxConnections: Int?
    /// Most connections open at once from one client address (an IPv6 address counts by its
    /// /64); more are answered 503 with `Retry-After` and closed. nil: no cap.
    public var maxConnectionsPerAddress: Int?
    /// Whether `maxConnectionsPerAddress` applies to loopback clients too (off: local load
    /// generators and test harnesses may open as many as the global cap allows).
    public var limitLoopbackConnections: Bool
    /// Proxies whose `X-Forwarded-For` names the client (the per-address cap, the access
    /// log and ``HTTPRequest/remoteAddress`` use it); from other peers it is ignored.
    public var trustedProxies = TrustedProxies()
    /// The `Retry-After` seconds sent with a 503 for a connection over a cap.
    public var connectionRetryAfterSeconds: Int
    /// Outbound queue bound per HTTP connection.
    public var maxOutboundBytes: Int
    /// Most requests of one connection in progress at once (pipelining); reading pauses
    /// beyond it.
    public var maxPipelinedRequests: Int
    /// `Server` header value; nil sends none.
    public var serverName: String?
    /// When set, every accepted connection speaks TLS (https, wss) with this identity's
    /// current certificate; nil serves plain HTTP.
    public var tls: TLSServerIdentity? = nil
    /// Longest time from accept to a finished TLS handshake; slower peers are dropped.
    public var tlsHandshakeTimeout: Duration = .seconds(10)

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 0, backlog: Int = 1024,
        distribution: TCPServer.Distribution = .reusePort,
        limits: HTTPRequestParser.Limits = HTTPRequestParser.Limits(),
        idleTimeout: Duration = .seconds(60), requestHeadTimeout: Duration = .seconds(10),
        requestBodyTimeout: Duration? = .seconds(300), minimumBodyRate: Int = 1024,
        requestBodyGracePeriod: Duration = .seconds(10),
        maxConnections: Int? = nil, maxConnectionsPerAddress: Int? = nil, limitLoopbackConnections: Bool = false,
        connectionRetryAfterSeconds: Int = 2,
        maxOutboundBytes: Int = 1 << 20,
        maxPipelinedRequests: Int = 16, serverName: String? = nil
    ) {
        self.host = host
        self.port = port
        self.backlog = backlog
        self.distribution = distribution
        self.limits = limits
        self.idleTimeout = idleTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.requestBodyTimeout = requestBodyTimeout
        self.minimumBodyRate = minimumBodyRate
        self.requestBodyGracePeriod = requestBodyGracePeriod
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.limitLoopbackConnections = limitLoopbackConnections
        self.connectionRetryAfterSeconds = connectionRetryAfterSeconds
        self.maxOutboundBytes = maxOutboundBytes
        self.maxPipelinedRequests = maxPipelinedRequests
        self.serverName = serverName
    }
}
