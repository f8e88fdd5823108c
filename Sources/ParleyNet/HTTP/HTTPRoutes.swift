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
        /// The route's position in ``templates`` (its row in ``HTTPRouteLatency``).
        var index: Int
        var handler: HTTPHandler
        var maxBodySize: Int?
        var headCheck: HTTPHeadCheck?
    }

    struct WebSocketRoute: Sendable {
        var pattern: String
        var index: Int
        var options: WebSocketRouteOptions
        var shouldUpgrade: WebSocketUpgradeCheck?
        var onOpen: WebSocketOpenHandler
    }

    private(set) var router = HTTPRouter<Entry>()
    /// Every route added, in order: what a latency histogram is kept for.
    public private(set) var templates: [HTTPRouteTemplate] = []

    /// Creates an empty table.
    public init() {}

    /// Adds an HTTP handler; `maxBodySize` overrides the server's body limit for this route;
    /// `headCheck` may refuse a request before its body is read.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, maxBodySize: Int? = nil,
        headCheck: HTTPHeadCheck? = nil, _ handler: @escaping HTTPHandler
    ) {
        router.add(
            method, pattern,
            .http(
                HTTPRoute(
                    pattern: pattern, index: templateIndex(method, pattern), handler: handler,
                    maxBodySize: maxBodySize, headCheck: headCheck)))
    }

    /// The index of the method and pattern in ``templates``, appended if new (a route added
    /// again replaces its handler, and keeps its histogram).
    private mutating func templateIndex(_ method: HTTPMethod, _ pattern: String) -> Int {
        let template = HTTPRouteTemplate(method: method.rawValue, pattern: pattern)
        if let existing = templates.firstIndex(of: template) { return existing }
        templates.append(template)
        return templates.count - 1
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
    public mutating func webSocket(
        _ pattern: String, options: WebSocketRouteOptions = WebSocketRouteOptions(),
        shouldUpgrade: WebSocketUpgradeCheck? = nil,
        onOpen: @escaping WebSocketOpenHandler
    ) {
        router.add(
            .GET, pattern,
            .webSocket(
                WebSocketRoute(
                    pattern: pattern, index: templateIndex(.GET, pattern), options: options,
                    shouldUpgrade: shouldUpgrade, onOpen: onOpen)))
    }
}

/// A route as metrics name it: its method and pattern, never a request's values.
public struct HTTPRouteTemplate: Sendable, Hashable {
    /// `GET`, `POST`, …
    public var method: String
    /// `/v1/rooms/{room_id}/messages`
    public var pattern: String

    /// A template.
    public init(method: String, pattern: String) {
        self.method = method
        self.pattern = pattern
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
    public init(
        maxMessageSize: Int = WebSocketOptions.defaultMaxMessageSize,
        deflate: WebSocketDeflateOptions? = nil, subprotocols: [String] = [],
        pingInterval: Duration? = nil, maxOutboundBytes: Int = 1 << 20,
        overflowCloseCode: WebSocketCloseCode = .policyViolation,
        closeTimeout: Duration = .seconds(5)
    ) {
        self.maxMessageSize = maxMessageSize
        self.deflate = deflate
        self.subprotocols = subprotocols
        self.pingInterval = pingInterval
        self.maxOutboundBytes = maxOutboundBytes
        self.overflowCloseCode = overflowCloseCode
        self.closeTimeout = closeTimeout
    }
}
