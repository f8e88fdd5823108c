/// Reading the Yjs values a generic document keeps as raw bytes: strings, lib0 "any"
/// values and signed varints are validated and skipped, so their bytes can be stored and
/// written back unchanged.
extension ByteReader {
    /// Skips a length-prefixed UTF-8 string after checking that it is valid UTF-8.
    mutating func skipVarString() throws(ParleyTextError) {
        let length = try readBoundedInt()
        guard length <= remaining else { throw .truncated }
        guard UTF8Transcoder.isValid(bytes, from: offset, to: offset + length) else { throw .invalidUTF8 }
        try skip(length)
    }

    /// Reads a length-prefixed UTF-8 string.
    mutating func readString() throws(ParleyTextError) -> String {
        let length = try readBoundedInt()
        guard length <= remaining else { throw .truncated }
        let start = offset
        guard UTF8Transcoder.isValid(bytes, from: start, to: start + length) else { throw .invalidUTF8 }
        try skip(length)
        return String(decoding: bytes[start..<(start + length)], as: UTF8.self)
    }

    /// Skips a lib0 signed varint (sign and six bits in the first byte, then 7-bit groups),
    /// refusing values beyond JavaScript's safe integers as lib0 does.
    mutating func skipVarInt() throws(ParleyTextError) {
        var byte = try readUInt8()
        var groups = 0
        while byte & 0x80 != 0 {
            groups += 1
            // 6 + 7 × 7 bits already exceed 2^53.
            guard groups <= 7 else { throw .varintOverflow }
            byte = try readUInt8()
        }
    }

    /// Skips one lib0 "any" value (what `encoding.writeAny` writes), checking its structure.
    mutating func skipAny(depth: Int = 0) throws(ParleyTextError) {
        guard depth < TextLimits.maxNesting else { throw .nestingTooDeep }
        switch try readUInt8() {
        case 127, 126, 121, 120:  // undefined, null, false, true
            return
        case 125: try skipVarInt()
        case 124: try skip(4)  // float32
        case 123, 122: try skip(8)  // float64, bigint64
        case 119: try skipVarString()
        case 118:
            let count = try readBoundedInt()
            guard count <= remaining else { throw .truncated }
            for _ in 0..<count {
                try skipVarString()
                try skipAny(depth: depth + 1)
            }
        case 117:
            let count = try readBoundedInt()
            guard count <= remaining else { throw .truncated }
            for _ in 0..<count { try skipAny(depth: depth + 1) }
        case 116:
            try skip(try readBoundedInt())  // Uint8Array
        default:
            throw .invalidAnyValue
        }
    }
}
