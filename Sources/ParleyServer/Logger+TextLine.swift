import ParleyPlatform

/// The `time=… level=… component=… msg=… key=value` line, written byte by byte into one buffer:
/// every answered request writes one (the access log), and building it from interpolated
/// strings, a `String` per piece, cost about 28,000 instructions a line.
extension Logger {
    /// The text line for one event, with its newline; values are quoted as ``quoted(_:)`` does.
    static func textLine(time: timespec, level: Level, label: String, message: String, fields: [(String, String)]) -> String {
        var line: [UInt8] = []
        line.reserveCapacity(96 + message.utf8.count + fields.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 })
        line.append(contentsOf: "time=".utf8)
        appendTimestamp(time, to: &line)
        line.append(contentsOf: " level=".utf8)
        line.append(contentsOf: level.rawValue.utf8)
        line.append(contentsOf: " component=".utf8)
        line.append(contentsOf: label.utf8)
        line.append(contentsOf: " msg=".utf8)
        appendQuoted(message, to: &line)
        for (key, value) in fields {
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: key.utf8)
            line.append(UInt8(ascii: "="))
            appendQuoted(value, to: &line)
        }
        line.append(UInt8(ascii: "\n"))
        return String(decoding: line, as: UTF8.self)
    }

    /// The current time as a `timespec` of the real-time clock.
    static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    /// `time` as `2026-12-02T17:04:05.123Z` (UTC, milliseconds).
    static func appendTimestamp(_ time: timespec, to line: inout [UInt8]) {
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        appendDecimal(Int(parts.tm_year) + 1900, digits: 1, to: &line)
        line.append(UInt8(ascii: "-"))
        appendDecimal(Int(parts.tm_mon) + 1, digits: 2, to: &line)
        line.append(UInt8(ascii: "-"))
        appendDecimal(Int(parts.tm_mday), digits: 2, to: &line)
        line.append(UInt8(ascii: "T"))
        appendDecimal(Int(parts.tm_hour), digits: 2, to: &line)
        line.append(UInt8(ascii: ":"))
        appendDecimal(Int(parts.tm_min), digits: 2, to: &line)
        line.append(UInt8(ascii: ":"))
        appendDecimal(Int(parts.tm_sec), digits: 2, to: &line)
        line.append(UInt8(ascii: "."))
        appendDecimal(Int(time.tv_nsec / 1_000_000), digits: 3, to: &line)
        line.append(UInt8(ascii: "Z"))
    }

    /// `value` in decimal, with leading zeros up to `digits`.
    static func appendDecimal(_ value: Int, digits: Int, to line: inout [UInt8]) {
        if value < 0 { line.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var width = 1
        var rest = magnitude / 10
        while rest > 0 {
            width += 1
            rest /= 10
        }
        width = max(width, digits)
        line.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var index = line.count
        repeat {
            index -= 1
            line[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// `value` as is when it is plain printable ASCII without `"` or `=`, else between quotes
    /// with `"`, `\` and newlines escaped. Byte by byte: the escaped characters are ASCII, and
    /// no byte of a longer UTF-8 sequence is.
    static func appendQuoted(_ value: String, to line: inout [UInt8]) {
        let plain =
            !value.isEmpty && value.utf8.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "=") && $0 < 0x7F }
        if plain {
            line.append(contentsOf: value.utf8)
            return
        }
        line.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            default: line.append(byte)
            }
        }
        line.append(UInt8(ascii: "\""))
    }
}
