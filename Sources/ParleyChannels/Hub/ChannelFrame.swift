import ParleyWire

/// One published event, encoded once for every subscriber: the Pusher JSON, and the same
/// bytes already framed as an unmasked WebSocket text frame that every connection queues by
/// reference (DESIGN.md decision 4). The frame is uncompressed, which is valid on
/// permessage-deflate connections too (RSV1 is per message).
public final class ChannelFrame: Sendable {
    /// The Pusher protocol message (JSON text).
    public let json: [UInt8]
    /// `json` as a complete server-to-client WebSocket text frame.
    public let websocketFrame: SharedBytes

    /// Encodes a message once.
    public init(json: [UInt8]) {
        self.json = json
        var frame: [UInt8] = []
        json.withUnsafeBytes { WebSocketFrame.encode(opcode: .text, payload: $0, maskKey: nil, into: &frame) }
        self.websocketFrame = SharedBytes(frame)
    }
}
