/// A bounds-checked reader of lib0-encoded values (the primitives of Yjs update format v1).
///
/// Every read either returns a complete, valid value or throws; nothing ever reads past the end.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }
    var remaining: Int { bytes.count - offset }

    /// Advances past `count` bytes without reading them.
    mutating func skip(_ count: Int) throws(ParleyTextError) {
        guard count >= 0, count <= remaining else { throw .truncated }
        offset += count
    }

    mutating func readUInt8() throws(ParleyTextError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        let byte = bytes[offset]
        offset += 1
        return byte
    }

    /// Reads an unsigned LEB128 integer, rejecting overlong forms and values beyond 64 bits.
    mutating func readVarUInt() throws(ParleyTextError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var count = 0
        while true {
            guard offset < bytes.count else { throw .truncated }
            let byte = bytes[offset]
            offset += 1
            count += 1
            let payload = UInt64(byte & 0x7F)
            if shift == 63 && payload > 1 { throw .varintOverflow }
            value |= payload << shift
            if byte & 0x80 == 0 {
                // A zero final group after the first byte means a shorter form existed.
                if byte == 0 && count > 1 { throw .varintOverlong }
                return value
            }
            shift += 7
            if shift > 63 { throw .varintOverflow }
        }
    }

    /// Reads an unsigned integer that must be a valid clock, length or count (below 2^53).
    mutating func readBoundedInt() throws(ParleyTextError) -> Int {
        let value = try readVarUInt()
        guard value <= UInt64(TextLimits.maxClock) else { throw .clockOverflow }
        return Int(value)
    }

    /// Reads a length-prefixed UTF-8 string and appends it as UTF-16 to `units`.
    /// Returns the number of UTF-16 units appended.
    mutating func readVarString(into units: inout [UInt16]) throws(ParleyTextError) -> Int {
        let length = try readBoundedInt()
        guard length <= remaining else { throw .truncated }
        let start = offset
        offset += length
        return try UTF8Transcoder.appendUTF16(of: bytes, from: start, to: start + length, into: &units)
    }

    /// Reads a length-prefixed string and tells whether its bytes equal `expected`.
    mutating func readVarStringEquals(_ expected: [UInt8]) throws(ParleyTextError) -> Bool {
        let length = try readBoundedInt()
        guard length <= remaining else { throw .truncated }
        let start = offset
        offset += length
        guard UTF8Transcoder.isValid(bytes, from: start, to: start + length) else { throw .invalidUTF8 }
        guard length == expected.count else { return false }
        for index in 0..<length where bytes[start + index] != expected[index] {
            return false
        }
        return true
    }
}

/// Sizes the implementation accepts from the wire.
enum TextLimits {
    /// The largest clock or count accepted: JavaScript's safe-integer limit, as in lib0.
    static let maxClock = (1 << 53) - 1
    /// The largest single struct length (it is stored in 32 bits).
    static let maxStructLength = Int(Int32.max)
    /// The deepest nesting of arrays and objects accepted inside one "any" value.
    static let maxNesting = 64
}
