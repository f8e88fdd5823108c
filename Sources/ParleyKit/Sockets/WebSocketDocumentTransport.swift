#if canImport(ParleyNet)
import ParleyNet
import ParleyWire

/// Document connections over ParleyNet's WebSocket client (`ws://`, and `wss://` over TLS
/// from OpenSSL: the system's CA certificates unless given a CA file).
public struct WebSocketDocumentTransport: DocumentTransport {
    /// Give up connecting after this long.
    public var connectTimeout: Duration
    /// Largest incoming message accepted (a first sync of a big document is one message).
    public var maxMessageSize: Int

    /// PEM file of the CA certificates a `wss://` server's certificate must come from; nil:
    /// the system's.
    public var caFile: String?

    /// Creates a transport.
    public init(connectTimeout: Duration = .seconds(10), maxMessageSize: Int = 64 << 20, caFile: String? = nil) {
        self.connectTimeout = connectTimeout
        self.maxMessageSize = maxMessageSize
        self.caFile = caFile
    }

    /// Opens a document connection (see ``DocumentTransport``).
    public func connect(url: String, token: String, appID: String?) async throws(ParleyError) -> any DocumentConnection {
        let loop = try NetRuntime.loop()
        let (frames, sink) = AsyncStream<DocumentFrame>.makeStream()
        var headers = HTTPHeaders()
        headers.add("Authorization", "Bearer " + token)
        if let appID { headers.add("X-Parley-App", appID) }
        let configuration = WebSocketClient.Configuration(
            maxMessageSize: maxMessageSize, headers: headers,
            connectTimeout: connectTimeout, pingInterval: .seconds(30),
            maxOutboundBytes: 16 << 20,
            tls: try NetRuntime.tlsContext(caFile: caFile))
        let result: Result<WebSocket, WebSocketClientError> = await withCheckedContinuation { continuation in
            WebSocketClient.connect(to: url, configuration: configuration, on: loop) { result in
                if case .success(let socket) = result {
                    socket.onMessage = { _, message in
                        switch message {
                        case .binary(let bytes): sink.yield(.binary(bytes))
                        case .text(let text): sink.yield(.text(Array(text.utf8)))
                        }
                    }
                    socket.onClose = { _, code, reason in
                        sink.yield(.closed(code: Int(code.rawValue), reason: reason))
                        sink.finish()
                    }
                }
                continuation.resume(returning: result)
            }
        }
        switch result {
        case .success(let socket):
            return WebSocketDocumentConnection(socket: socket, frames: frames)
        case .failure(.handshake(let error)) where Self.refusedStatus(error) != nil:
            throw ParleyError(.server, "WebSocket upgrade refused: \(error)", status: Self.refusedStatus(error))
        case .failure(let error):
            throw ParleyError(.network, "WebSocket: \(error)")
        }
    }
}

extension WebSocketDocumentTransport {
    /// The HTTP status of an upgrade the server answered with an error (401 for a refused
    /// token), so the session can tell "get a new token" from "the network is down".
    static func refusedStatus(_ error: WebSocketHandshakeError) -> Int? {
        guard error.code == .unexpectedStatus, let last = error.message.split(separator: " ").last else { return nil }
        return Int(last)
    }
}

/// A ``DocumentConnection`` over a ``WebSocket``.
struct WebSocketDocumentConnection: DocumentConnection {
    let socket: WebSocket
    let frames: AsyncStream<DocumentFrame>

    func send(_ message: [UInt8]) { socket.send(binary: message) }

    func close(code: Int) { socket.close(code: WebSocketCloseCode(UInt16(clamping: code))) }
}
#endif
