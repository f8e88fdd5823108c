/// Incremental UTF-8 validation (RFC 3629) for text messages arriving in pieces.
///
/// Feed bytes as they arrive; a code point may be split across calls (and so across
/// frames). `consume` fails on the first byte that can never start or continue a valid
/// sequence, so a peer streaming garbage is stopped at once rather than at message end.
public struct WebSocketUTF8Validator: Sendable, Equatable {
    /// Continuation bytes still expected for the current code point.
    @usableFromInline var pending: UInt8 = 0
    /// Allowed range of the next continuation byte (narrower after E0, ED, F0, F4).
    @usableFromInline var low: UInt8 = 0x80
    @usableFromInline var high: UInt8 = 0xBF

    /// Creates a validator at a code-point boundary.
    public init() {}

    /// Whether the bytes so far end on a complete code point.
    @inlinable public var isComplete: Bool { pending == 0 }

    /// Validates the next bytes; false as soon as one of them makes the text invalid.
    @inlinable
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            if pending == 0 {
                // ASCII runs are the common case: skip them a word at a time.
                while index + 8 <= count,
                      base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                guard index < count else { break }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                if byte < 0x80 { continue }
                guard startSequence(byte) else { return false }
            } else {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                guard byte >= low, byte <= high else { return false }
                pending -= 1
                low = 0x80
                high = 0xBF
            }
        }
        return true
    }

    /// Sets up the continuation expectations of a lead byte; false if it cannot lead.
    @inlinable
    mutating func startSequence(_ byte: UInt8) -> Bool {
        switch byte {
        case 0xC2...0xDF: pending = 1
        case 0xE0: pending = 2; low = 0xA0                 // no overlong 3-byte forms
        case 0xE1...0xEC, 0xEE...0xEF: pending = 2
        case 0xED: pending = 2; high = 0x9F                // no UTF-16 surrogates
        case 0xF0: pending = 3; low = 0x90                 // no overlong 4-byte forms
        case 0xF1...0xF3: pending = 3
        case 0xF4: pending = 3; high = 0x8F                // nothing above U+10FFFF
        default: return false
        }
        return true
    }

    /// Validates bytes held in an array.
    @inlinable
    public mutating func consume(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { consume($0) }
    }
}
