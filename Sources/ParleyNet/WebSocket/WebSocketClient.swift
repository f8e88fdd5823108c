import ParleyWire

/// Opens client WebSockets (`ws://`, and `wss://` over TLS) on an event loop.
public enum WebSocketClient {
    /// Client settings.
    public struct Configuration: Sendable {
        /// Largest incoming message accepted (after decompression); larger closes with 1009.
        public var maxMessageSize: Int
        /// permessage-deflate offer; nil offers none.
        public var deflate: WebSocketDeflateOptions?
        /// Subprotocols to request, in order of preference.
        public var subprotocols: [String]
        /// Extra request header fields.
        public var headers: HTTPHeaders
        /// `Origin` header, if any.
        public var origin: String?
        /// Give up connecting and handshaking after this long.
        public var connectTimeout: Duration
        /// Ping the server this often, closing if it stays silent for two intervals; nil: no
        /// heartbeat from this side.
        public var pingInterval: Duration?
        /// Outbound queue bound.
        public var maxOutboundBytes: Int
        /// How long to wait for the server's close frame after sending ours.
        public var closeTimeout: Duration
        /// The TLS client context of `wss://` connections; nil trusts the system's CA
        /// certificates (``TLSContext/systemClient()``).
        public var tls: TLSContext?

        /// Creates a configuration.
        public init(
            maxMessageSize: Int = WebSocketOptions.defaultMaxMessageSize,
            deflate: WebSocketDeflateOptions? = nil, subprotocols: [String] = [],
            headers: HTTPHeaders = HTTPHeaders(), origin: String? = nil,
            connectTimeout: Duration = .seconds(10), pingInterval: Duration? = nil,
            maxOutboundBytes: Int = 1 << 20, closeTimeout: Duration = .seconds(5), tls: TLSContext? = nil
        ) {
            self.maxMessageSize = maxMessageSize
            self.deflate = deflate
            self.subprotocols = subprotocols
            self.headers = headers
            self.origin = origin
            self.connectTimeout = connectTimeout
            self.pingInterval = pingInterval
            self.maxOutboundBytes = maxOutboundBytes
            self.closeTimeout = closeTimeout
            self.tls = tls
        }
    }

    /// Connects to `url` from `loop`. `completion` runs on the loop exactly once, with the
    /// open socket (set its callbacks there: no message is delivered before it returns) or
    /// the reason it failed. Any thread.
    public static func connect(
        to url: String, configuration: Configuration = Configuration(), on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<WebSocket, WebSocketClientError>) -> Void
    ) {
        guard let parsed = WebSocketURL(url) else {
            hop(loop) { completion(.failure(.invalidURL(url))) }
            return
        }
        if let literal = SocketAddress(host: parsed.host, port: parsed.port) {
            hop(loop) { open(literal, parsed, configuration, loop, completion) }
            return
        }
        // Name resolution blocks: keep it off the loop.
        BlockingWork.run {
            let result: Result<[SocketAddress], NetError>
            do throws(NetError) {
                result = .success(try SocketAddress.resolve(host: parsed.host, port: parsed.port))
            } catch {
                result = .failure(error)
            }
            loop.execute {
                switch result {
                case .success(let addresses): open(addresses[0], parsed, configuration, loop, completion)
                case .failure(let error): completion(.failure(.network(error)))
                }
            }
        }
    }

    private static func open(
        _ address: SocketAddress, _ url: WebSocketURL, _ configuration: Configuration,
        _ loop: EventLoop, _ completion: @escaping @Sendable (Result<WebSocket, WebSocketClientError>) -> Void
    ) {
        Connection.connect(to: address, on: loop, timeout: configuration.connectTimeout) { result in
            switch result {
            case .failure(let error):
                completion(.failure(.network(error)))
            case .success(let connection):
                if url.isSecure {
                    do throws(NetError) {
                        let context: TLSContext
                        if let given = configuration.tls { context = given } else { context = try TLSContext.systemClient() }
                        try connection.startTLS(
                            context: context, role: .client(serverName: url.host),
                            handshakeTimeout: configuration.connectTimeout)
                    } catch {
                        connection.abort(nil)
                        completion(.failure(.network(error)))
                        return
                    }
                }
                let handshaker = WebSocketClientHandshaker(
                    connection: connection, url: url,
                    configuration: configuration, completion: completion)
                connection.handler = handshaker
                handshaker.start()
            }
        }
    }
}

/// Why a client WebSocket could not be opened.
public enum WebSocketClientError: Error, Sendable, CustomStringConvertible {
    /// Not a `ws://` or `wss://` URL.
    case invalidURL(String)
    /// Resolving, connecting or the connection failed.
    case network(NetError)
    /// The server refused the upgrade or answered something invalid.
    case handshake(WebSocketHandshakeError)

    /// A stable code for logs and tests.
    public var code: String {
        switch self {
        case .invalidURL: "websocket.invalid_url"
        case .network(let error): error.code.rawValue
        case .handshake(let error): "websocket.handshake.\(error.code.rawValue)"
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid WebSocket URL: \(url)"
        case .network(let error): error.description
        case .handshake(let error): "WebSocket handshake failed: \(error)"
        }
    }
}

/// Drives the opening handshake of a client connection, then hands over to ``WebSocket``.
final class WebSocketClientHandshaker: ConnectionHandler {
    private let connection: Connection
    private var handshake: WebSocketClientHandshake
    private let configuration: WebSocketClient.Configuration
    private var completion: (@Sendable (Result<WebSocket, WebSocketClientError>) -> Void)?
    private var timeout: TimerHandle?

    init(
        connection: Connection, url: WebSocketURL, configuration: WebSocketClient.Configuration,
        completion: @escaping @Sendable (Result<WebSocket, WebSocketClientError>) -> Void
    ) {
        self.connection = connection
        self.configuration = configuration
        self.completion = completion
        self.handshake = WebSocketClientHandshake(
            host: url.hostHeader, path: url.target,
            subprotocols: configuration.subprotocols,
            origin: configuration.origin, headers: configuration.headers,
            deflate: configuration.deflate)
    }

    func start() {
        connection.maxOutboundBytes = configuration.maxOutboundBytes
        connection.write(handshake.requestBytes)
        timeout = connection.loop.scheduleLocal(after: configuration.connectTimeout) { [self] in
            timeout = nil
            connection.abort(NetError(.timedOut, "WebSocket handshake"))
        }
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        let done: WebSocketClientHandshake.Completion?
        do {
            done = try handshake.receive(bytes)
        } catch {
            fail(.handshake(error))
            return
        }
        guard let done else { return }
        timeout?.cancel()
        timeout = nil
        let socket = WebSocket(
            connection: connection, role: .client,
            options: done.negotiated.options(maxMessageSize: configuration.maxMessageSize),
            subprotocol: done.negotiated.subprotocol,
            settings: WebSocket.Settings(
                pingInterval: configuration.pingInterval,
                overflowCloseCode: .policyViolation,
                closeTimeout: configuration.closeTimeout))
        connection.handler = socket
        let completion = self.completion
        self.completion = nil
        completion?(.success(socket))
        socket.startHeartbeat()
        if !done.remaining.isEmpty { done.remaining.withUnsafeBytes { socket.receive($0) } }
    }

    private func fail(_ error: WebSocketClientError) {
        let completion = self.completion
        self.completion = nil
        connection.abort(nil)
        completion?(.failure(error))
    }

    func connection(_ connection: Connection, didCloseWith error: NetError?) {
        timeout?.cancel()
        timeout = nil
        let completion = self.completion
        self.completion = nil
        completion?(.failure(.network(error ?? NetError(.closed, "closed during the WebSocket handshake"))))
    }
}
