import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Realtime connections over `URLSessionWebSocketTask`: `ws://` and `wss://`, with TLS from
/// the system. The default on Apple platforms. It compiles on Linux too, but runs there only
/// where libcurl was built with WebSockets (Debian 12's is not), so Linux defaults to the
/// socket transport.
public struct URLSessionRealtimeTransport: RealtimeTransport {
    private let session: URLSession
    /// Give up connecting after this long.
    public var connectTimeout: Duration
    /// Largest incoming message accepted.
    public var maxMessageSize: Int

    /// Creates a transport over `session` (by default an ephemeral session of its own).
    public init(session: URLSession? = nil, connectTimeout: Duration = .seconds(10), maxMessageSize: Int = 1 << 20) {
        self.session = session ?? URLSession(configuration: .ephemeral)
        self.connectTimeout = connectTimeout
        self.maxMessageSize = maxMessageSize
    }

    /// Opens a realtime connection (see ``RealtimeTransport``).
    public func connect(url: String) async throws(ParleyError) -> any RealtimeConnection {
        let request = try URLSessionWebSocketRequest.make(url, timeout: connectTimeout, headers: [:])
        let socket = try await URLSessionWebSocket.open(request, session: session, maxMessageSize: maxMessageSize)
        let (frames, sink) = AsyncStream<RealtimeFrame>.makeStream()
        socket.startReceiving { incoming in
            switch incoming {
            case .text(let bytes): sink.yield(.text(bytes))
            case .binary: break  // the Pusher protocol is text only
            case .closed(let code, let reason):
                sink.yield(.closed(code: code, reason: reason))
                sink.finish()
            }
        }
        return URLSessionRealtimeConnection(socket: socket, frames: frames)
    }
}

/// A ``RealtimeConnection`` over a `URLSessionWebSocketTask`.
struct URLSessionRealtimeConnection: RealtimeConnection {
    let socket: URLSessionWebSocket
    let frames: AsyncStream<RealtimeFrame>

    func send(_ text: [UInt8]) { socket.send(.string(String(decoding: text, as: UTF8.self))) }

    func close(code: Int) { socket.close(code: code) }
}
