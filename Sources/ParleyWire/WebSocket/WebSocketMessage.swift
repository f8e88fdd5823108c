/// A complete WebSocket data message, reassembled from its frames.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message, already validated as UTF-8.
    case text(String)
    /// A binary message.
    case binary([UInt8])
}
