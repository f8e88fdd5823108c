/// Byte classes and small ASCII encoders shared by the HTTP/1.1 parser and writer.
///
/// Everything works on single bytes so that the hot paths never build a `String` per
/// character; the grammar comes from RFC 9110 §5.6 and RFC 9112.
enum HTTPSyntax {
    static var cr: UInt8 { 0x0D }
    static var lf: UInt8 { 0x0A }
    static var sp: UInt8 { 0x20 }
    static var htab: UInt8 { 0x09 }
    static var colon: UInt8 { 0x3A }
    static var semicolon: UInt8 { 0x3B }

    /// Whether the byte may appear in a `token` (method names, header names, codings).
    @inline(__always)
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    /// Whether the byte may appear in a field value: visible ASCII, space, tab or obs-text.
    @inline(__always)
    static func isFieldValueByte(_ b: UInt8) -> Bool {
        b == htab || (b >= 0x20 && b != 0x7F)
    }

    /// Whether the byte may appear in a request target: visible ASCII only.
    @inline(__always)
    static func isTargetByte(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F }

    /// Whether the byte is optional whitespace (space or tab).
    @inline(__always)
    static func isWhitespace(_ b: UInt8) -> Bool { b == sp || b == htab }

    /// The value of an ASCII hex digit, or nil.
    @inline(__always)
    static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: Int(b &- 0x30)
        case 0x41...0x46: Int(b &- 0x41 &+ 10)
        case 0x61...0x66: Int(b &- 0x61 &+ 10)
        default: nil
        }
    }

    /// Whether the byte is an ASCII decimal digit.
    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// Appends a non-negative integer in decimal.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        precondition(value >= 0, "negative value on the wire")
        if value < 10 { out.append(0x30 &+ UInt8(value)); return }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 { d[count] = 0x30 &+ UInt8(v % 10); v /= 10; count += 1 }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(d[i]) }
        }
    }

    /// Appends a non-negative integer in lowercase hexadecimal (chunk sizes).
    static func appendHex(_ value: Int, to out: inout [UInt8]) {
        precondition(value >= 0, "negative value on the wire")
        let alphabet: StaticString = "0123456789abcdef"
        var shift = (Int.bitWidth - value.leadingZeroBitCount + 3) / 4 * 4 - 4
        if shift < 0 { shift = 0 }
        alphabet.withUTF8Buffer { a in
            while shift >= 0 {
                out.append(a[(value >> shift) & 0xF])
                shift -= 4
            }
        }
    }

    /// Appends the UTF-8 bytes of a string.
    @inline(__always)
    static func append(_ string: String, to out: inout [UInt8]) {
        out.append(contentsOf: string.utf8)
    }

    /// The range of `bytes[start..<end]` without leading and trailing spaces and tabs.
    @inline(__always)
    static func trimWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
        var s = start, e = end
        while s < e, isWhitespace(bytes[s]) { s += 1 }
        while e > s, isWhitespace(bytes[e - 1]) { e -= 1 }
        return s..<e
    }
}
