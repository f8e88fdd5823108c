import ParleyWire

/// What the transport must do for a y-websocket session.
public enum YWebSocketAction: Sendable, Hashable {
    /// Send these bytes to the peer as one binary message.
    case send([UInt8])
    /// Close the connection with this status code and reason.
    case close(WebSocketCloseCode, reason: String)
}
