/// Opens realtime (WebSocket) connections: the socket client in production, an in-memory
/// server in tests.
public protocol RealtimeTransport: Sendable {
    /// Opens a connection to `url` (`ws://host/app/{key}?protocol=7`).
    func connect(url: String) async throws(ParleyError) -> any RealtimeConnection
}

/// One open realtime connection carrying text messages.
public protocol RealtimeConnection: Sendable {
    /// Incoming text messages, then one ``RealtimeFrame/closed(code:reason:)``, then the end.
    var frames: AsyncStream<RealtimeFrame> { get }
    /// Sends a text message.
    func send(_ text: [UInt8])
    /// Closes the connection with a WebSocket close code.
    func close(code: Int)
}

/// What arrives on a realtime connection.
public enum RealtimeFrame: Sendable, Equatable {
    /// A text message (UTF-8 bytes).
    case text([UInt8])
    /// The connection closed, with the WebSocket close code (1006 when it just broke).
    case closed(code: Int, reason: String)
}
