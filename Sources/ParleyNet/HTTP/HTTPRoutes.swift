import ParleyWire

/// Handles a request on the connection's loop; answer through the responder, now or later
/// from any thread.
public typealias HTTPHandler = @Sendable (HTTPRequest, HTTPResponder) -> Void

/// Looks at a request on the loop before a byte of its body is read (the request's `body` is
/// empty): return nil to read the body and run the handler, or the response to refuse with.
/// A refusal of a request that announced a body closes the connection after the answer, so
/// a client that was refused never gets to send, and the server never buffers, that body.
public typealias HTTPHeadCheck = @Sendable (HTTPRequest) -> HTTPResponse?

/// Decides, on the loop, whether to accept a WebSocket upgrade: return nil to accept, or the
/// response to refuse with (e.g. 401/403/404 for an unknown app key or origin).
public typealias WebSocketUpgradeCheck = @Sendable (HTTPRequest, WebSocketServerHandshake) -> HTTPResponse?

/// Called on the loop right after the 101 response is queued: set the socket's callbacks
/// here; no message is delivered before this returns.
public typealias WebSocketOpenHandler = @Sendable (HTTPRequest, WebSocket) -> Void

/// The server's routing table: HTTP handlers and WebSocket endpoints by method and pattern.
///
/// Patterns follow ``HTTPRouter``: `/apps/{appId}/events`, a final `{rest...}` catch-all.
public struct HTTPRoutes: Sendable {
    enum Entry: Sendable {
        case http(HTTPRoute)
        case webSocket(WebSocketRoute)
    }

    struct HTTPRoute: Sendable {
        var pattern: String
        var handler: HTTPHandler
        var maxBodySize: Int?
        var headCheck: HTTPHeadCheck?
    }

    struct WebSocketRoute: Sendable {
        var pattern: String
        var options: WebSocketRouteOptions
        var shouldUpgrade: WebSocketUpgradeCheck?
        var onOpen: WebSocketOpenHandler
    }

    private(set) var router = HTTPRouter<Entry>()

    /// Creates an empty table.
    public init() {}

    /// Adds an HTTP handler; `maxBodySize` overrides the server's body limit for this route;
    /// `headCheck` may refuse a request before its body is read.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, maxBodySize: Int? = nil,
                             headCheck: HTTPHeadCheck? = nil, _ handler: @escaping HTTPHandler) {
        router.add(method, pattern, .http(HTTPRoute(pattern: pattern, handler: handler, maxBodySize: maxBodySize, headCheck: headCheck)))
    }

    /// Adds a GET handler (HEAD is answered by it too, without the body).
    public mutating func get(_ pattern: String, _ handler: @escaping HTTPHandler) {
        add(.GET, pattern, handler)
    }

    /// Adds a POST handler.
    public mutating func post(_ pattern: String, maxBodySize: Int? = nil, _ handler: @escaping HTTPHandler) {
        add(.POST, pattern, maxBodySize: maxBodySize, handler)
    }

    /// Adds a WebSocket endpoint (a GET with `Upgrade: websocket`).
    public mutating func webSocket(_ pattern: String, options: WebSocketRouteOptions = WebSocketRouteOptions(),
                                   shouldUpgrade: WebSocketUpgradeCheck? = nil,
                                   onOpen: @escaping WebSocketOpenHandler) {
        router.add(.GET, pattern, .webSocket(WebSocketRoute(pattern: pattern, options: options, shouldUpgrade: shouldUpgrade, onOpen: onOpen)))
    }
}

/// Per-endpoint WebSocket settings.
public struct WebSocketRouteOptions: Sendable {
    /// Largest incoming message (after decompression); larger closes with 1009. Default 64 KiB.
    public var maxMessageSize: Int
    /// permessage-deflate policy; nil refuses compression.
    public var deflate: WebSocketDeflateOptions?
    /// Subprotocols the server supports, in its order of preference.
    public var subprotocols: [String]
    /// Send a ping this often and close a peer that stays silent for two intervals; nil: no
    /// heartbeat from the server.
    public var pingInterval: Duration?
    /// Outbound queue bound per socket; a peer that lets more pile up is closed.
    public var maxOutboundBytes: Int
    /// The close code sent to a peer that exceeded `maxOutboundBytes` (unless the socket's
    /// own `onOutboundOverflow` decides otherwise).
    public var overflowCloseCode: WebSocketCloseCode
    /// How long to wait for the peer's close frame after sending ours.
    public var closeTimeout: Duration

    /// Creates options.
    public init(maxMessageSize: Int = WebSocketOptions.defaultMaxMessageSize,
                deflate: WebSocketDeflateOptions? = nil, subprotocols: [String] = [],
                pingInterval: Duration? = nil, maxOutboundBytes: Int = 1 << 20,
                overflowCloseCode: WebSocketCloseCode = .policyViolation,
                closeTimeout: Duration = .seconds(5)) {
        self.maxMessageSize = maxMessageSize
        self.deflate = deflate
        self.subprotocols = subprotocols
        self.pingInterval = pingInterval
        self.maxOutboundBytes = maxOutboundBytes
        self.overflowCloseCode = overflowCloseCode
        self.closeTimeout = closeTimeout
    }
}
