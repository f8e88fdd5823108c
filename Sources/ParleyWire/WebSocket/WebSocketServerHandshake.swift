/// The server side of the opening handshake (RFC 6455 §4.2, RFC 7692 §7.1).
///
/// `init(request:)` validates an upgrade request; the application then looks at
/// `requestedSubprotocols`, `origin` and the target, and calls `accept` (or answers with
/// its own refusal, e.g. 403 for an unwanted origin). On a thrown error, send `error.response`.
public struct WebSocketServerHandshake: Sendable {
    /// The upgrade request.
    public let request: HTTPRequestHead
    /// The client's `Sec-WebSocket-Key`.
    public let key: String
    /// Subprotocols the client asked for, in its order of preference (case kept).
    public let requestedSubprotocols: [String]
    /// The `Origin` header, if the client (typically a browser) sent one.
    public let origin: String?
    /// Every extension the client offered, in order.
    public let offeredExtensions: [WebSocketExtension]

    /// Validates an upgrade request; throws with the status to answer (400, or 426).
    public init(request: HTTPRequestHead) throws(WebSocketHandshakeError) {
        let headers = request.headers
        guard request.method == .GET else { throw .init(.methodNotGet, "WebSocket upgrade needs GET") }
        guard request.version.major > 1 || (request.version.major == 1 && request.version.minor >= 1) else {
            throw .init(.httpVersionTooOld, "WebSocket upgrade needs HTTP/1.1")
        }
        guard headers.tokens("Upgrade").contains("websocket") else {
            throw .init(.missingUpgrade, "missing Upgrade: websocket")
        }
        guard headers.tokens("Connection").contains("upgrade") else {
            throw .init(.missingConnectionUpgrade, "missing Connection: upgrade")
        }
        let versions = headers.values(for: "Sec-WebSocket-Version").map { $0.trimmingASCIIWhitespace() }
        guard versions == ["13"] else { throw .init(.unsupportedVersion, "Sec-WebSocket-Version must be 13") }
        let keys = headers.values(for: "Sec-WebSocket-Key").map { $0.trimmingASCIIWhitespace() }
        guard keys.count == 1, let key = keys.first, Base64.decode(key)?.count == 16 else {
            throw .init(.invalidKey, "Sec-WebSocket-Key must be base64 of 16 bytes")
        }
        guard let extensions = WebSocketExtension.parse(headers.values(for: "Sec-WebSocket-Extensions")) else {
            throw .init(.invalidExtensions, "malformed Sec-WebSocket-Extensions")
        }
        self.request = request
        self.key = key
        self.requestedSubprotocols = WebSocketHandshakeEncoding.list(headers.values(for: "Sec-WebSocket-Protocol"))
        self.origin = headers.first("Origin")
        self.offeredExtensions = extensions
    }

    /// The outcome of accepting: the 101 response and what it settled.
    public struct Accepted: Sendable, Equatable {
        /// The 101 Switching Protocols head to send.
        public var response: HTTPResponseHead
        /// The selected subprotocol, if any.
        public var subprotocol: String?
        /// The permessage-deflate parameters, if compression was agreed.
        public var deflate: WebSocketDeflateParameters?

        /// The response head's bytes.
        public var responseBytes: [UInt8] { WebSocketHandshakeEncoding.bytes(of: response) }

        /// Connection options carrying the negotiated compression.
        public func options(maxMessageSize: Int = WebSocketOptions.defaultMaxMessageSize) -> WebSocketOptions {
            WebSocketOptions(maxMessageSize: maxMessageSize, deflate: deflate)
        }
    }

    /// Accepts the upgrade with `subprotocol` (which must be one the client requested)
    /// and, when `deflate` is given, the first permessage-deflate offer that it allows.
    public func accept(
        subprotocol: String? = nil, deflate: WebSocketDeflateOptions? = nil,
        headers extra: HTTPHeaders = HTTPHeaders()
    ) throws(WebSocketHandshakeError) -> Accepted {
        if let subprotocol, !requestedSubprotocols.contains(subprotocol) {
            throw .init(.subprotocolNotRequested, "subprotocol \(subprotocol) was not requested")
        }
        return makeAccepted(subprotocol: subprotocol, deflate: deflate, headers: extra)
    }

    /// Accepts the upgrade choosing the first of `supportedSubprotocols` (server preference)
    /// that the client requested; none matching means no subprotocol.
    public func accept(
        supportedSubprotocols: [String], deflate: WebSocketDeflateOptions? = nil,
        headers: HTTPHeaders = HTTPHeaders()
    ) -> Accepted {
        let chosen = supportedSubprotocols.first { requestedSubprotocols.contains($0) }
        return makeAccepted(subprotocol: chosen, deflate: deflate, headers: headers)
    }

    private func makeAccepted(subprotocol: String?, deflate: WebSocketDeflateOptions?, headers extra: HTTPHeaders) -> Accepted {
        var headers = HTTPHeaders()
        headers.add("Upgrade", "websocket")
        headers.add("Connection", "Upgrade")
        headers.add("Sec-WebSocket-Accept", WebSocketHandshakeEncoding.acceptValue(for: key))
        if let subprotocol { headers.add("Sec-WebSocket-Protocol", subprotocol) }
        var parameters: WebSocketDeflateParameters?
        if let deflate, let agreed = WebSocketDeflateNegotiation.accept(offers: offeredExtensions, policy: deflate) {
            parameters = agreed.parameters
            headers.add("Sec-WebSocket-Extensions", agreed.response.headerValue)
        }
        for field in extra { headers.add(field.name, field.value) }
        return Accepted(
            response: HTTPResponseHead(status: .switchingProtocols, headers: headers),
            subprotocol: subprotocol, deflate: parameters)
    }
}
