/// The fixed part of a WebSocket frame (RFC 6455 §5.2): flags, opcode, mask and length.
public struct WebSocketFrameHeader: Sendable, Hashable {
    /// The FIN bit: this frame ends its message.
    public var fin: Bool
    /// RSV1 (per-message compressed under permessage-deflate), RSV2, RSV3 as bits 2, 1, 0.
    public var reservedBits: UInt8
    /// The raw 4-bit opcode (may be one RFC 6455 does not define).
    public var opcodeValue: UInt8
    /// The masking key in `WebSocketMasking` form, nil if the frame is not masked.
    public var maskKey: UInt32?
    /// The payload length.
    public var payloadLength: UInt64

    /// The defined opcode, nil for reserved values.
    public var opcode: WebSocketOpcode? { WebSocketOpcode(rawValue: opcodeValue) }
    /// Whether RSV1 is set.
    public var rsv1: Bool { reservedBits & 0b100 != 0 }

    /// The longest possible header: 2 + 8 (64-bit length) + 4 (mask).
    public static let maximumSize = 14

    /// The result of reading a header from the front of some bytes.
    public enum ParseResult: Sendable, Hashable {
        /// More bytes are needed.
        case incomplete
        /// A header, and how many bytes it took.
        case header(WebSocketFrameHeader, size: Int)
        /// A 64-bit length with its most significant bit set (forbidden).
        case invalidLength
    }

    /// Reads a header from the front of `bytes`.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> ParseResult {
        guard bytes.count >= 2 else { return .incomplete }
        let first = bytes[0], second = bytes[1]
        let masked = second & 0x80 != 0
        var length = UInt64(second & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return .incomplete }
            length = UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return .incomplete }
            length = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt64.self))
            guard length >> 63 == 0 else { return .invalidLength }
            offset = 10
        }
        var key: UInt32?
        if masked {
            guard bytes.count >= offset + 4 else { return .incomplete }
            key = WebSocketMasking.key(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
            offset += 4
        }
        let header = WebSocketFrameHeader(
            fin: first & 0x80 != 0, reservedBits: (first >> 4) & 0x7,
            opcodeValue: first & 0xF, maskKey: key, payloadLength: length)
        return .header(header, size: offset)
    }
}
