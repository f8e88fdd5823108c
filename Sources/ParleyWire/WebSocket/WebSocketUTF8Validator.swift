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
        @inline(__always) func byte(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }
        @inline(__always) func isContinuation(_ offset: Int) -> Bool { byte(offset) & 0xC0 == 0x80 }
        while index < count {
            let lead = byte(index)
            if pending != 0 {
                // Inside a sequence cut by the end of an earlier buffer.
                guard lead >= low, lead <= high else { return false }
                index += 1
                pending -= 1
                low = 0x80
                high = 0xBF
                continue
            }
            if lead < 0x80 {
                index += 1
                // ASCII runs are the common case: skip them a word at a time.
                while index + 8 <= count,
                    base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                continue
            }
            // Whole sequences inside the buffer are checked in one step.
            let remaining = count - index
            if lead >= 0xC2, lead <= 0xDF, remaining >= 2 {
                guard isContinuation(index + 1) else { return false }
                index += 2
                continue
            }
            if lead >= 0xE0, lead <= 0xEF, remaining >= 3 {
                let second = byte(index + 1)
                let secondValid =
                    switch lead {
                    case 0xE0: second >= 0xA0 && second <= 0xBF  // no overlong forms
                    case 0xED: second >= 0x80 && second <= 0x9F  // no UTF-16 surrogates
                    default: second & 0xC0 == 0x80
                    }
                guard secondValid, isContinuation(index + 2) else { return false }
                index += 3
                continue
            }
            if lead >= 0xF0, lead <= 0xF4, remaining >= 4 {
                let second = byte(index + 1)
                let secondValid =
                    switch lead {
                    case 0xF0: second >= 0x90 && second <= 0xBF  // no overlong forms
                    case 0xF4: second >= 0x80 && second <= 0x8F  // nothing above U+10FFFF
                    default: second & 0xC0 == 0x80
                    }
                guard secondValid, isContinuation(index + 2), isContinuation(index + 3) else { return false }
                index += 4
                continue
            }
            // An invalid lead byte, or a sequence cut by the end of this buffer.
            index += 1
            guard startSequence(lead) else { return false }
        }
        return true
    }

    /// Sets up the continuation expectations of a lead byte; false if it cannot lead.
    @inlinable
    mutating func startSequence(_ byte: UInt8) -> Bool {
        switch byte {
        case 0xC2...0xDF: pending = 1
        case 0xE0: pending = 2; low = 0xA0  // no overlong 3-byte forms
        case 0xE1...0xEC, 0xEE...0xEF: pending = 2
        case 0xED: pending = 2; high = 0x9F  // no UTF-16 surrogates
        case 0xF0: pending = 3; low = 0x90  // no overlong 4-byte forms
        case 0xF1...0xF3: pending = 3
        case 0xF4: pending = 3; high = 0x8F  // nothing above U+10FFFF
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
