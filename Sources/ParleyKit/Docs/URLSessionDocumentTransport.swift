import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Document (y-websocket) connections over `URLSessionWebSocketTask`: `ws://` and `wss://`,
/// with TLS from the system. The default on Apple platforms; on Linux it runs only where
/// libcurl was built with WebSockets, so Linux defaults to the socket transport.
public struct URLSessionDocumentTransport: DocumentTransport {
    private let session: URLSession
    /// Give up connecting after this long.
    public var connectTimeout: Duration
    /// Largest incoming message accepted (a first sync of a big document is one message).
    public var maxMessageSize: Int

    /// Creates a transport over `session` (by default an ephemeral session of its own).
    public init(session: URLSession? = nil, connectTimeout: Duration = .seconds(10), maxMessageSize: Int = 64 << 20) {
        self.session = session ?? URLSession(configuration: .ephemeral)
        self.connectTimeout = connectTimeout
        self.maxMessageSize = maxMessageSize
    }

    /// Opens a document connection (see ``DocumentTransport``).
    public func connect(url: String, token: String, appID: String?) async throws(ParleyError) -> any DocumentConnection {
        var headers = ["Authorization": "Bearer " + token]
        if let appID { headers["X-Parley-App"] = appID }
        let request = try URLSessionWebSocketRequest.make(url, timeout: connectTimeout, headers: headers)
        let socket = try await URLSessionWebSocket.open(request, session: session, maxMessageSize: maxMessageSize)
        let (frames, sink) = AsyncStream<DocumentFrame>.makeStream()
        socket.startReceiving { incoming in
            switch incoming {
            case .text(let bytes): sink.yield(.text(bytes))
            case .binary(let bytes): sink.yield(.binary(bytes))
            case .closed(let code, let reason):
                sink.yield(.closed(code: code, reason: reason))
                sink.finish()
            }
        }
        return URLSessionDocumentConnection(socket: socket, frames: frames)
    }
}

/// A ``DocumentConnection`` over a `URLSessionWebSocketTask`.
struct URLSessionDocumentConnection: DocumentConnection {
    let socket: URLSessionWebSocket
    let frames: AsyncStream<DocumentFrame>

    func send(_ message: [UInt8]) { socket.send(.data(Data(message))) }

    func close(code: Int) { socket.close(code: code) }
}
