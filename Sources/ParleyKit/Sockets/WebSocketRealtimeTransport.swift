#if canImport(ParleyNet)
import ParleyNet
import ParleyWire

/// Realtime connections over ParleyNet's WebSocket client (`ws://`, and `wss://` over TLS
/// from OpenSSL: the system's CA certificates unless given a CA file).
public struct WebSocketRealtimeTransport: RealtimeTransport {
    /// Give up connecting after this long.
    public var connectTimeout: Duration

    /// PEM file of the CA certificates a `wss://` server's certificate must come from; nil:
    /// the system's.
    public var caFile: String?

    /// Creates a transport.
    public init(connectTimeout: Duration = .seconds(10), caFile: String? = nil) {
        self.connectTimeout = connectTimeout
        self.caFile = caFile
    }

    /// Opens a realtime connection (see ``RealtimeTransport``).
    public func connect(url: String) async throws(ParleyError) -> any RealtimeConnection {
        let loop = try NetRuntime.loop()
        let (frames, sink) = AsyncStream<RealtimeFrame>.makeStream()
        let configuration = WebSocketClient.Configuration(connectTimeout: connectTimeout, tls: try NetRuntime.tlsContext(caFile: caFile))
        let result: Result<WebSocket, WebSocketClientError> = await withCheckedContinuation { continuation in
            WebSocketClient.connect(to: url, configuration: configuration, on: loop) { result in
                if case .success(let socket) = result {
                    socket.onMessage = { _, message in
                        if case .text(let text) = message { sink.yield(.text(Array(text.utf8))) }
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
        case .success(let socket): return WebSocketRealtimeConnection(socket: socket, frames: frames)
        case .failure(let error): throw ParleyError(.network, "WebSocket: \(error)")
        }
    }
}

/// A ``RealtimeConnection`` over a ``WebSocket``.
struct WebSocketRealtimeConnection: RealtimeConnection {
    let socket: WebSocket
    let frames: AsyncStream<RealtimeFrame>

    func send(_ text: [UInt8]) { socket.send(utf8Text: text) }

    func close(code: Int) { socket.close(code: WebSocketCloseCode(UInt16(clamping: code))) }
}
#endif
