/// Opens y-websocket connections for document sessions: the socket client in production,
/// an in-memory peer or a server wrapper in tests.
public protocol DocumentTransport: Sendable {
    /// Opens a connection to `url` (`ws://host/v1/…/ws`), sending `token` as a Bearer token
    /// and `appID`, when set, as `X-Parley-App`.
    func connect(url: String, token: String, appID: String?) async throws(ParleyError) -> any DocumentConnection
}

/// One open y-websocket connection: binary y-protocols messages both ways.
public protocol DocumentConnection: Sendable {
    /// Incoming messages, then one ``DocumentFrame/closed(code:reason:)``, then the end.
    var frames: AsyncStream<DocumentFrame> { get }
    /// Sends one binary message.
    func send(_ message: [UInt8])
    /// Closes the connection with a WebSocket close code.
    func close(code: Int)
}

/// What arrives on a document connection.
public enum DocumentFrame: Sendable, Equatable {
    /// A binary message (one y-protocols message).
    case binary([UInt8])
    /// A text message, which the protocol does not use.
    case text([UInt8])
    /// The connection closed, with the WebSocket close code (1006 when it just broke).
    case closed(code: Int, reason: String)
}
