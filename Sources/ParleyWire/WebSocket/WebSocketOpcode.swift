/// A WebSocket frame opcode (RFC 6455 §5.2).
public enum WebSocketOpcode: UInt8, Sendable, Hashable {
    /// A continuation of a fragmented data message.
    case continuation = 0x0
    /// The first frame of a text message.
    case text = 0x1
    /// The first frame of a binary message.
    case binary = 0x2
    /// A close control frame.
    case close = 0x8
    /// A ping control frame.
    case ping = 0x9
    /// A pong control frame.
    case pong = 0xA

    /// Whether this is a control opcode (close, ping, pong).
    @inlinable public var isControl: Bool { rawValue & 0x8 != 0 }
}
