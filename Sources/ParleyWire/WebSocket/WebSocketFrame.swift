/// A single WebSocket frame and the encoder for frames (RFC 6455 §5.2).
///
/// Servers send unmasked frames; clients mask every frame with a fresh random key.
/// The static `encode` functions write straight from a payload buffer, so the hot paths
/// (`WebSocketConnection.send`, broadcast) never build a `WebSocketFrame` value.
public struct WebSocketFrame: Sendable, Hashable {
    /// The FIN bit: this frame ends its message.
    public var fin: Bool
    /// RSV1: the message is compressed (permessage-deflate); first frame only.
    public var rsv1: Bool
    /// The opcode.
    public var opcode: WebSocketOpcode
    /// The unmasked payload.
    public var payload: [UInt8]

    /// Creates a frame.
    public init(fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.fin = fin
        self.rsv1 = rsv1
        self.opcode = opcode
        self.payload = payload
    }

    /// The wire bytes of this frame, masked with `maskKey` (client role) or unmasked (nil).
    public func encoded(maskKey: UInt32? = nil) -> [UInt8] {
        var out: [UInt8] = []
        payload.withUnsafeBytes {
            Self.encode(opcode: opcode, fin: fin, rsv1: rsv1, payload: $0, maskKey: maskKey, into: &out)
        }
        return out
    }

    /// Appends one frame to `out`: header, then the payload, masked in place when a key is given.
    public static func encode(
        opcode: WebSocketOpcode, fin: Bool = true, rsv1: Bool = false,
        payload: UnsafeRawBufferPointer, maskKey: UInt32?, into out: inout [UInt8]
    ) {
        let start = out.count
        out.reserveCapacity(start + WebSocketFrameHeader.maximumSize + payload.count)
        appendHeader(opcode: opcode, fin: fin, rsv1: rsv1, length: payload.count, maskKey: maskKey, to: &out)
        let payloadStart = out.count
        out.append(contentsOf: payload)
        if let maskKey {
            out.withUnsafeMutableBytes { raw in
                _ = WebSocketMasking.apply(
                    key: maskKey, phase: 0,
                    to: UnsafeMutableRawBufferPointer(rebasing: raw[payloadStart...]))
            }
        }
    }

    /// Appends a frame header for a payload of `length` bytes.
    public static func appendHeader(
        opcode: WebSocketOpcode, fin: Bool, rsv1: Bool, length: Int,
        maskKey: UInt32?, to out: inout [UInt8]
    ) {
        out.append((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
        if length < 126 {
            out.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            out.append(maskBit | 126)
            out.append(UInt8(truncatingIfNeeded: length >> 8))
            out.append(UInt8(truncatingIfNeeded: length))
        } else {
            out.append(maskBit | 127)
            let value = UInt64(length)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        if let maskKey {
            for shift in stride(from: 0, through: 24, by: 8) { out.append(UInt8(truncatingIfNeeded: maskKey >> UInt32(shift))) }
        }
    }

    /// An unmasked, uncompressed, single-frame text message as a server sends it.
    ///
    /// Encode once and hand the same bytes to every subscriber (fan-out): the frame is
    /// valid on any server connection, compressed or not, since RSV1 is per message.
    public static func serverText(_ text: String) -> [UInt8] {
        var text = text
        var out: [UInt8] = []
        text.withUTF8 { encode(opcode: .text, payload: UnsafeRawBufferPointer($0), maskKey: nil, into: &out) }
        return out
    }

    /// An unmasked, uncompressed, single-frame binary message as a server sends it (fan-out).
    public static func serverBinary(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        bytes.withUnsafeBytes { encode(opcode: .binary, payload: $0, maskKey: nil, into: &out) }
        return out
    }
}
