@testable import ParleyWire

/// Builds frames by hand, independently of `WebSocketFrame`, so encoder bugs can't hide.
enum WSWire {
    static let sampleKey: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    static func frame(
        _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0,
        mask: [UInt8]? = sampleKey
    ) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | (rsv << 4) | opcode]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if payload.count < 126 {
            out.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(maskBit | 127)
            out += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (UInt64($0) * 8)) & 0xFF) }
        }
        guard let mask else { return out + payload }
        return out + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// A masked client frame (what a server receives).
    static func client(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0) -> [UInt8] {
        frame(opcode, payload, fin: fin, rsv: rsv)
    }

    /// An unmasked server frame (what a client receives).
    static func server(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0) -> [UInt8] {
        frame(opcode, payload, fin: fin, rsv: rsv, mask: nil)
    }

    static func closePayload(_ code: UInt16, _ reason: String = "") -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
    }

    /// Decodes one whole frame (either masking) for inspecting what a connection wrote.
    static func decode(_ bytes: [UInt8]) -> (fin: Bool, rsv1: Bool, opcode: UInt8, masked: Bool, mask: [UInt8], payload: [UInt8])? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126 {
            length = Int(bytes[2]) << 8 | Int(bytes[3]); offset = 4
        } else if length == 127 {
            length = (2..<10).reduce(0) { $0 << 8 | Int(bytes[$1]) }; offset = 10
        }
        let masked = bytes[1] & 0x80 != 0
        var mask: [UInt8] = []
        if masked { mask = Array(bytes[offset..<offset + 4]); offset += 4 }
        guard bytes.count == offset + length else { return nil }
        var payload = Array(bytes[offset...])
        if masked { for i in payload.indices { payload[i] ^= mask[i % 4] } }
        return (bytes[0] & 0x80 != 0, bytes[0] & 0x40 != 0, bytes[0] & 0xF, masked, mask, payload)
    }
}

extension WebSocketConnection.Action {
    /// The close code this action reports, if it is `.closed`.
    var closedCode: UInt16? {
        if case .closed(let code, _) = self { return code.rawValue }
        return nil
    }

    /// The bytes of a `.write`.
    var written: [UInt8]? {
        if case .write(let bytes) = self { return bytes }
        return nil
    }
}

extension Array where Element == WebSocketConnection.Action {
    /// The close code of the final `.closed`, if the actions end with one.
    var closeCode: UInt16? { last?.closedCode }

    /// The status code inside the close frame this end wrote, if any.
    var sentCloseCode: UInt16? {
        for action in self {
            guard let bytes = action.written, let frame = WSWire.decode(bytes), frame.opcode == 0x8 else { continue }
            return frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005
        }
        return nil
    }

    var messages: [WebSocketMessage] {
        compactMap { if case .message(let m) = $0 { m } else { nil } }
    }
}

/// Feeds bytes one at a time and collects every action.
func receiveByteByByte(_ connection: inout WebSocketConnection, _ bytes: [UInt8]) -> [WebSocketConnection.Action] {
    bytes.flatMap { connection.receive([$0]) }
}
