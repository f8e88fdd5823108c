/// An append-only writer of lib0-encoded values (the primitives of Yjs update format v1).
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    mutating func writeUInt8(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func writeVarUInt(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func writeVarUInt(_ value: Int) {
        writeVarUInt(UInt64(value))
    }

    mutating func writeVarString(_ utf8: [UInt8]) {
        writeVarUInt(utf8.count)
        bytes.append(contentsOf: utf8)
    }

    mutating func append(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }
}
