/// The JSON form of message parts in the `messages.parts` column:
/// `[{"type":"text","text":"…"},{"type":"attachment","id":"…"},{"type":"url","url":"…"}]`.
enum MessagePartsJSON {
    /// Encodes parts as a JSON array.
    static func encode(_ parts: [MessagePart]) -> String {
        var output: [UInt8] = [UInt8(ascii: "[")]
        for (index, part) in parts.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            switch part {
            case .text(let text): appendObject(&output, type: "text", key: "text", value: text)
            case .attachment(let id): appendObject(&output, type: "attachment", key: "id", value: id)
            case .url(let url): appendObject(&output, type: "url", key: "url", value: url)
            }
        }
        output.append(UInt8(ascii: "]"))
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendObject(_ output: inout [UInt8], type: String, key: String, value: String) {
        output.append(contentsOf: #"{"type":""#.utf8)
        output.append(contentsOf: type.utf8)
        output.append(contentsOf: #"",""#.utf8)
        output.append(contentsOf: key.utf8)
        output.append(contentsOf: #"":"#.utf8)
        appendString(&output, value)
        output.append(UInt8(ascii: "}"))
    }

    private static func appendString(_ output: inout [UInt8], _ value: String) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): output.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): output.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): output.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Decodes the column's JSON; `internal` error for anything this encoder would not have written.
    static func decode(_ json: String) throws(StoreError) -> [MessagePart] {
        var parser = Parser(bytes: Array(json.utf8))
        do {
            return try parser.parseParts()
        } catch {
            throw StoreError(.internal, "malformed message parts in the database: \(json.prefix(80))")
        }
    }

    private struct Malformed: Error {}

    /// A parser for exactly the shape above: an array of objects with string members.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func parseParts() throws(Malformed) -> [MessagePart] {
            var parts: [MessagePart] = []
            skipSpace()
            try expect(UInt8(ascii: "["))
            skipSpace()
            if peek() == UInt8(ascii: "]") { index += 1; return parts }
            while true {
                parts.append(try parsePart())
                skipSpace()
                let next = try take()
                if next == UInt8(ascii: "]") { break }
                guard next == UInt8(ascii: ",") else { throw Malformed() }
            }
            skipSpace()
            guard index == bytes.count else { throw Malformed() }
            return parts
        }

        private mutating func parsePart() throws(Malformed) -> MessagePart {
            var members: [String: String] = [:]
            skipSpace()
            try expect(UInt8(ascii: "{"))
            while true {
                skipSpace()
                let key = try parseString()
                skipSpace()
                try expect(UInt8(ascii: ":"))
                skipSpace()
                members[key] = try parseString()
                skipSpace()
                let next = try take()
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw Malformed() }
            }
            switch members["type"] {
            case "text": if let text = members["text"] { return .text(text) }
            case "attachment": if let id = members["id"] { return .attachment(id) }
            case "url": if let url = members["url"] { return .url(url) }
            default: break
            }
            throw Malformed()
        }

        private mutating func parseString() throws(Malformed) -> String {
            try expect(UInt8(ascii: "\""))
            var output: [UInt8] = []
            while true {
                let byte = try take()
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: output, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    try parseEscape(into: &output)
                default:
                    output.append(byte)
                }
            }
        }

        private mutating func parseEscape(into output: inout [UInt8]) throws(Malformed) {
            let escaped = try take()
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escaped)
            case UInt8(ascii: "n"): output.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): output.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "t"): output.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    try expect(UInt8(ascii: "\\"))
                    try expect(UInt8(ascii: "u"))
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw Malformed() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw Malformed() }
                output.append(contentsOf: String(Character(unicode)).utf8)
            default:
                throw Malformed()
            }
        }

        private mutating func parseHex4() throws(Malformed) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = try take()
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw Malformed()
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }

        private func peek() -> UInt8? {
            index < bytes.count ? bytes[index] : nil
        }

        private mutating func take() throws(Malformed) -> UInt8 {
            guard index < bytes.count else { throw Malformed() }
            defer { index += 1 }
            return bytes[index]
        }

        private mutating func expect(_ byte: UInt8) throws(Malformed) {
            guard try take() == byte else { throw Malformed() }
        }

        private mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }
    }
}
