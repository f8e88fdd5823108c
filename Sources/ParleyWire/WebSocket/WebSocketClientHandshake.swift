/// The client side of the opening handshake (RFC 6455 §4.1, RFC 7692 §7.1).
///
/// Send `requestBytes`, feed the socket's bytes to `receive` until it returns the
/// outcome, then drive a `WebSocketConnection(role: .client, options:)` and give it the
/// `remaining` bytes first. `validate` checks a response head parsed elsewhere.
public struct WebSocketClientHandshake: Sendable {
    /// The `Sec-WebSocket-Key` sent.
    public let key: String
    /// The upgrade request.
    public let request: HTTPRequestHead
    /// Subprotocols requested, in order of preference.
    public let subprotocols: [String]
    /// The permessage-deflate offer made, if any.
    public let deflate: WebSocketDeflateOptions?
    private var reader = HTTPResponseParser.headOnly(limit: WebSocketClientHandshake.headLimit)
    /// Largest response head accepted.
    static let headLimit = 16 * 1024

    /// Builds an upgrade request for `path` (with query) on `host` (with `:port` when not
    /// the default). `key` is 16 random bytes from libcrypto unless a test supplies one.
    public init(
        host: String, path: String = "/", subprotocols: [String] = [], origin: String? = nil,
        headers extra: HTTPHeaders = HTTPHeaders(), deflate: WebSocketDeflateOptions? = nil,
        key: [UInt8] = Digest.randomBytes(16)
    ) {
        self.key = Base64.encode(key)
        self.subprotocols = subprotocols
        self.deflate = deflate
        var headers = HTTPHeaders()
        headers.add("Host", host)
        headers.add("Upgrade", "websocket")
        headers.add("Connection", "Upgrade")
        headers.add("Sec-WebSocket-Key", self.key)
        headers.add("Sec-WebSocket-Version", "13")
        if !subprotocols.isEmpty { headers.add("Sec-WebSocket-Protocol", subprotocols.joined(separator: ", ")) }
        if let deflate { headers.add("Sec-WebSocket-Extensions", WebSocketDeflateNegotiation.offer(deflate).headerValue) }
        if let origin { headers.add("Origin", origin) }
        for field in extra { headers.add(field.name, field.value) }
        request = HTTPRequestHead(method: .GET, target: path.isEmpty ? "/" : path, headers: headers)
    }

    /// The request head's bytes, to send first.
    public var requestBytes: [UInt8] { WebSocketHandshakeEncoding.bytes(of: request) }

    /// What the server agreed to.
    public struct Negotiated: Sendable, Hashable {
        /// The subprotocol the server selected, if any.
        public var subprotocol: String?
        /// The permessage-deflate parameters, if the server accepted compression.
        public var deflate: WebSocketDeflateParameters?

        /// Connection options carrying the negotiated compression.
        public func options(maxMessageSize: Int = WebSocketOptions.defaultMaxMessageSize) -> WebSocketOptions {
            WebSocketOptions(maxMessageSize: maxMessageSize, deflate: deflate)
        }
    }

    /// A completed handshake read from the byte stream.
    public struct Completion: Sendable, Equatable {
        /// The server's response head.
        public var response: HTTPResponseHead
        /// What it agreed to.
        public var negotiated: Negotiated
        /// Bytes that followed the head: the start of the WebSocket stream.
        public var remaining: [UInt8]
    }

    /// Feeds response bytes; nil until the head is complete. Throws if the server refused
    /// or answered something a client must not accept (then close the TCP connection).
    public mutating func receive(_ bytes: UnsafeRawBufferPointer) throws(WebSocketHandshakeError) -> Completion? {
        let response: HTTPClientResponse
        do throws(HTTPResponseParseError) {
            guard let complete = try reader.receive(bytes) else { return nil }
            response = complete
        } catch {
            throw .init(error.code == .headTooLarge ? .responseTooLarge : .malformedResponse, error.message)
        }
        return Completion(response: response.head, negotiated: try validate(response.head), remaining: reader.takeUnparsedBytes())
    }

    /// Feeds response bytes (array convenience).
    public mutating func receive(_ bytes: [UInt8]) throws(WebSocketHandshakeError) -> Completion? {
        var result: Result<Completion?, WebSocketHandshakeError> = .success(nil)
        bytes.withUnsafeBytes { raw in
            do throws(WebSocketHandshakeError) { result = .success(try receive(raw)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Checks the server's response head against this request.
    public func validate(_ response: HTTPResponseHead) throws(WebSocketHandshakeError) -> Negotiated {
        let headers = response.headers
        guard response.status.code == 101 else {
            throw .init(.unexpectedStatus, "expected 101, got \(response.status.code)")
        }
        guard headers.tokens("Upgrade").contains("websocket"), headers.tokens("Connection").contains("upgrade") else {
            throw .init(.upgradeNotConfirmed, "response lacks Upgrade: websocket / Connection: upgrade")
        }
        let accepts = headers.values(for: "Sec-WebSocket-Accept").map { $0.trimmingASCIIWhitespace() }
        guard accepts == [WebSocketHandshakeEncoding.acceptValue(for: key)] else {
            throw .init(.invalidAccept, "Sec-WebSocket-Accept does not match the key")
        }
        return Negotiated(subprotocol: try selectedSubprotocol(headers), deflate: try acceptedDeflate(headers))
    }

    private func selectedSubprotocol(_ headers: HTTPHeaders) throws(WebSocketHandshakeError) -> String? {
        let selected = WebSocketHandshakeEncoding.list(headers.values(for: "Sec-WebSocket-Protocol"))
        guard let first = selected.first else { return nil }
        guard selected.count == 1, subprotocols.contains(first) else {
            throw .init(.unexpectedSubprotocol, "server selected a subprotocol that was not requested")
        }
        return first
    }

    private func acceptedDeflate(_ headers: HTTPHeaders) throws(WebSocketHandshakeError) -> WebSocketDeflateParameters? {
        guard let extensions = WebSocketExtension.parse(headers.values(for: "Sec-WebSocket-Extensions")) else {
            throw .init(.invalidExtensions, "malformed Sec-WebSocket-Extensions")
        }
        guard let accepted = extensions.first else { return nil }
        guard extensions.count == 1, let deflate,
            let parameters = WebSocketDeflateNegotiation.confirm(response: accepted, offered: deflate)
        else {
            throw .init(.unexpectedExtension, "server accepted extensions that were not offered")
        }
        return parameters
    }
}
