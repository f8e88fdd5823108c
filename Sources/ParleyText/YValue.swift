/// A value held in a Yjs document, as its readers see it: the lib0 "any" values of maps
/// and arrays, text and the shapes ``YDocument`` reads shared types as.
public indirect enum YValue: Sendable, Hashable {
    /// `null` (and JavaScript's `undefined`).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer (lib0 writes integers up to 2^53 and big integers exactly).
    case integer(Int64)
    /// A floating-point number.
    case number(Double)
    /// A string.
    case string(String)
    /// Bytes (`Uint8Array`, binary content).
    case binary([UInt8])
    /// An array.
    case array([YValue])
    /// An object; readers that need an order sort the keys.
    case object([String: YValue])
    /// A value kept as the JSON text Yjs wrote it in (embeds, formatting attributes and the
    /// legacy JSON content), unparsed: this module has no JSON reader of its own.
    case json(String)
}

extension YValue {
    /// Reads one lib0 "any" value (the bytes `encoding.writeAny` writes).
    static func readAny(_ reader: inout ByteReader, depth: Int = 0) throws(ParleyTextError) -> YValue {
        guard depth < TextLimits.maxNesting else { throw .nestingTooDeep }
        switch try reader.readUInt8() {
        case 127, 126: return .null
        case 121: return .bool(false)
        case 120: return .bool(true)
        case 125: return .integer(try reader.readVarInt())
        case 124: return .number(Double(Float(bitPattern: UInt32(truncatingIfNeeded: try reader.readBigEndian(bytes: 4)))))
        case 123: return .number(Double(bitPattern: try reader.readBigEndian(bytes: 8)))
        case 122: return .integer(Int64(bitPattern: try reader.readBigEndian(bytes: 8)))
        case 119: return .string(try reader.readString())
        case 118:
            let count = try reader.readBoundedInt()
            guard count <= reader.remaining else { throw .truncated }
            var object: [String: YValue] = [:]
            for _ in 0..<count {
                let key = try reader.readString()
                object[key] = try readAny(&reader, depth: depth + 1)
            }
            return .object(object)
        case 117:
            let count = try reader.readBoundedInt()
            guard count <= reader.remaining else { throw .truncated }
            var array: [YValue] = []
            array.reserveCapacity(count)
            for _ in 0..<count { array.append(try readAny(&reader, depth: depth + 1)) }
            return .array(array)
        case 116:
            let length = try reader.readBoundedInt()
            guard length <= reader.remaining else { throw .truncated }
            let start = reader.offset
            try reader.skip(length)
            return .binary(Array(reader.bytes[start..<(start + length)]))
        default:
            throw .invalidAnyValue
        }
    }

    /// Writes the value as lib0 "any" (`encoding.writeAny`): integers that fit 31 bits as
    /// varints, other numbers as float32 when exact, else float64; JSON text as a string.
    func writeAny(to writer: inout ByteWriter) {
        switch self {
        case .null:
            writer.writeUInt8(126)
        case .bool(let value):
            writer.writeUInt8(value ? 120 : 121)
        case .integer(let value):
            if value.magnitude <= 0x7FFF_FFFF {
                writer.writeUInt8(125)
                writer.writeVarInt(value)
            } else if value.magnitude <= (1 << 53) {
                Self.number(Double(value)).writeAny(to: &writer)
            } else {
                writer.writeUInt8(122)
                writer.writeBigEndian(UInt64(bitPattern: value), bytes: 8)
            }
        case .number(let value):
            if value.rounded() == value, abs(value) <= 0x7FFF_FFFF {
                Self.integer(Int64(value)).writeAny(to: &writer)
            } else if Double(Float(value)) == value {
                writer.writeUInt8(124)
                writer.writeBigEndian(UInt64(Float(value).bitPattern), bytes: 4)
            } else {
                writer.writeUInt8(123)
                writer.writeBigEndian(value.bitPattern, bytes: 8)
            }
        case .string(let value), .json(let value):
            writer.writeUInt8(119)
            writer.writeVarString(Array(value.utf8))
        case .binary(let bytes):
            writer.writeUInt8(116)
            writer.writeVarString(bytes)
        case .array(let values):
            writer.writeUInt8(117)
            writer.writeVarUInt(values.count)
            for value in values { value.writeAny(to: &writer) }
        case .object(let object):
            writer.writeUInt8(118)
            writer.writeVarUInt(object.count)
            for key in object.keys.sorted() {
                writer.writeVarString(Array(key.utf8))
                object[key]!.writeAny(to: &writer)
            }
        }
    }
}

extension ByteReader {
    /// Reads a lib0 signed varint (sign and six bits in the first byte, then 7-bit groups),
    /// refusing values beyond JavaScript's safe integers as lib0 does.
    mutating func readVarInt() throws(ParleyTextError) -> Int64 {
        var byte = try readUInt8()
        var magnitude = Int64(byte & 0x3F)
        let negative = byte & 0x40 != 0
        var shift: Int64 = 6
        while byte & 0x80 != 0 {
            byte = try readUInt8()
            magnitude |= Int64(byte & 0x7F) << shift
            shift += 7
            // 6 + 7 × 7 bits already exceed 2^53.
            guard shift <= 55 else { throw .varintOverflow }
        }
        return negative ? -magnitude : magnitude
    }

    /// Reads an unsigned big-endian integer of `count` bytes (lib0 writes floats this way).
    mutating func readBigEndian(bytes count: Int) throws(ParleyTextError) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<count { value = value << 8 | UInt64(try readUInt8()) }
        return value
    }
}

extension ByteWriter {
    /// Writes a lib0 signed varint.
    mutating func writeVarInt(_ value: Int64) {
        var rest = value.magnitude
        var first = UInt8(rest & 0x3F)
        if value < 0 { first |= 0x40 }
        rest >>= 6
        if rest > 0 { first |= 0x80 }
        writeUInt8(first)
        while rest > 0 {
            var byte = UInt8(rest & 0x7F)
            rest >>= 7
            if rest > 0 { byte |= 0x80 }
            writeUInt8(byte)
        }
    }

    /// Writes the low `count` bytes of `value`, most significant first.
    mutating func writeBigEndian(_ value: UInt64, bytes count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) {
            writeUInt8(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }
}
