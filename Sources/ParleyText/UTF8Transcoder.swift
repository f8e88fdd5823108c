/// Conversions between the UTF-8 of the wire format and the UTF-16 that Yjs clocks count.
///
/// Decoding is strict (overlong forms, surrogates and values above U+10FFFF are errors).
/// Encoding writes a lone surrogate as U+FFFD, as JavaScript's `TextEncoder` does, so that a
/// struct cut between the halves of a surrogate pair still encodes as valid UTF-8.
enum UTF8Transcoder {
    /// Appends the UTF-16 form of `bytes[start..<end]` to `units`; returns the units appended.
    static func appendUTF16(
        of bytes: [UInt8], from start: Int, to end: Int, into units: inout [UInt16]
    ) throws(ParleyTextError) -> Int {
        let before = units.count
        var index = start
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                units.append(UInt16(lead))
                index += 1
                continue
            }
            let (scalar, width) = try decodeMultiByte(bytes, at: index, end: end)
            if scalar >= 0x10000 {
                let value = scalar - 0x10000
                units.append(UInt16(0xD800 + (value >> 10)))
                units.append(UInt16(0xDC00 + (value & 0x3FF)))
            } else {
                units.append(UInt16(scalar))
            }
            index += width
        }
        return units.count - before
    }

    /// Tells whether `bytes[start..<end]` is valid UTF-8.
    static func isValid(_ bytes: [UInt8], from start: Int, to end: Int) -> Bool {
        var index = start
        while index < end {
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            guard let (_, width) = try? decodeMultiByte(bytes, at: index, end: end) else { return false }
            index += width
        }
        return true
    }

    private static func decodeMultiByte(
        _ bytes: [UInt8], at index: Int, end: Int
    ) throws(ParleyTextError) -> (UInt32, Int) {
        let lead = UInt32(bytes[index])
        let width: Int
        let minimum: UInt32
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: width = 2; minimum = 0x80; scalar = lead & 0x1F
        case 0xE0...0xEF: width = 3; minimum = 0x800; scalar = lead & 0x0F
        case 0xF0...0xF4: width = 4; minimum = 0x10000; scalar = lead & 0x07
        default: throw .invalidUTF8
        }
        guard index + width <= end else { throw .invalidUTF8 }
        for offset in 1..<width {
            let byte = UInt32(bytes[index + offset])
            guard byte & 0xC0 == 0x80 else { throw .invalidUTF8 }
            scalar = (scalar << 6) | (byte & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
            throw .invalidUTF8
        }
        return (scalar, width)
    }

    /// The number of UTF-8 bytes that `units[start..<end]` encode to.
    static func utf8Count(_ units: [UInt16], from start: Int, to end: Int) -> Int {
        var count = 0
        var index = start
        while index < end {
            let unit = units[index]
            if unit < 0x80 {
                count += 1
            } else if unit < 0x800 {
                count += 2
            } else if isHighSurrogate(unit), index + 1 < end, isLowSurrogate(units[index + 1]) {
                count += 4
                index += 1
            } else {
                count += 3
            }
            index += 1
        }
        return count
    }

    /// Appends the UTF-8 form of `units[start..<end]` to `bytes`.
    static func appendUTF8(_ units: [UInt16], from start: Int, to end: Int, into bytes: inout [UInt8]) {
        var index = start
        while index < end {
            let unit = units[index]
            if unit < 0x80 {
                bytes.append(UInt8(unit))
            } else if unit < 0x800 {
                bytes.append(UInt8(0xC0 | (unit >> 6)))
                bytes.append(UInt8(0x80 | (unit & 0x3F)))
            } else if isHighSurrogate(unit), index + 1 < end, isLowSurrogate(units[index + 1]) {
                let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(units[index + 1]) - 0xDC00)
                bytes.append(UInt8(0xF0 | (scalar >> 18)))
                bytes.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
                bytes.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
                bytes.append(UInt8(0x80 | (scalar & 0x3F)))
                index += 1
            } else {
                let value = isSurrogate(unit) ? 0xFFFD : unit
                bytes.append(UInt8(0xE0 | (value >> 12)))
                bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
                bytes.append(UInt8(0x80 | (value & 0x3F)))
            }
            index += 1
        }
    }

    /// The number of Unicode scalars in `units[start..<end]` (a lone surrogate counts as one).
    static func scalarCount(_ units: [UInt16], from start: Int, to end: Int) -> Int {
        var count = end - start
        var index = start
        while index + 1 < end {
            if isHighSurrogate(units[index]) && isLowSurrogate(units[index + 1]) {
                count -= 1
                index += 2
            } else {
                index += 1
            }
        }
        return count
    }

    /// The UTF-16 offset, from `start`, of the scalar number `scalars` in `units[start..<end]`.
    static func unitOffset(ofScalar scalars: Int, in units: [UInt16], from start: Int, to end: Int) -> Int {
        var index = start
        var remaining = scalars
        while remaining > 0 && index < end {
            if isHighSurrogate(units[index]), index + 1 < end, isLowSurrogate(units[index + 1]) {
                index += 2
            } else {
                index += 1
            }
            remaining -= 1
        }
        return index - start
    }

    @inline(__always) static func isHighSurrogate(_ unit: UInt16) -> Bool { unit & 0xFC00 == 0xD800 }
    @inline(__always) static func isLowSurrogate(_ unit: UInt16) -> Bool { unit & 0xFC00 == 0xDC00 }
    @inline(__always) static func isSurrogate(_ unit: UInt16) -> Bool { unit & 0xF800 == 0xD800 }
}
