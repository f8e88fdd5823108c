/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Total: every input either yields a value or a `JSONError`; nothing traps, and nesting is
/// bounded by `maxDepth` so hostile input cannot exhaust the stack.
public struct JSONParser {
    /// The default nesting limit for arrays and objects.
    public static let defaultMaxDepth = 64

    /// Parses one JSON value that spans all of `bytes` (surrounding whitespace allowed).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        let result: Result<JSONValue, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer, maxDepth: maxDepth)
            return Result { () throws(JSONError) -> JSONValue in try parser.parseDocument() }
        }
        return try result.get()
    }

    /// Parses one JSON value from the UTF-8 of a string.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var position = 0
    private var depth = 0
    private var scratch: [UInt8] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private mutating func parseDocument() throws(JSONError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw JSONError(.trailingBytes, at: position) }
        return value
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func peek() throws(JSONError) -> UInt8 {
        guard position < bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
        return bytes[position]
    }

    private mutating func parseValue() throws(JSONError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw JSONError(.unexpectedByte, at: position)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for i in 0..<count {
            guard position < bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
            guard bytes[position] == start[i] else { throw JSONError(.unexpectedByte, at: position) }
            position += 1
        }
    }

    private mutating func enterContainer() throws(JSONError) {
        depth += 1
        guard depth <= maxDepth else { throw JSONError(.tooDeep, at: position) }
        position += 1
    }

    private mutating func parseObject() throws(JSONError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var object = JSONObject()
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw JSONError(.unexpectedByte, at: position) }
            let key = try parseString()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw JSONError(.unexpectedByte, at: position) }
            position += 1
            skipWhitespace()
            object.append(key, try parseValue())
            skipWhitespace()
            let next = try peek()
            position += 1
            if next == UInt8(ascii: "}") { return .object(object) }
            guard next == UInt8(ascii: ",") else { throw JSONError(.unexpectedByte, at: position - 1) }
        }
    }

    private mutating func parseArray() throws(JSONError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            let next = try peek()
            position += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else { throw JSONError(.unexpectedByte, at: position - 1) }
        }
    }

    private mutating func parseNumber() throws(JSONError) -> String {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw JSONError(.invalidNumber, at: position) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            guard skipDigits() > 0 else { throw JSONError(.invalidNumber, at: position) }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard skipDigits() > 0 else { throw JSONError(.invalidNumber, at: position) }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard skipDigits() > 0 else { throw JSONError(.invalidNumber, at: position) }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
        return position - start
    }

    /// Parses a string starting at its opening quote. The common case — no escapes — makes
    /// one validated copy straight from the input.
    private mutating func parseString() throws(JSONError) -> String {
        position += 1
        let start = position
        var ored: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                // ASCII is valid UTF-8 as it stands: String(decoding:) takes it without the
                // generic validating initialiser (whose unspecialised path dominated parsing).
                if ored < 0x80 { return String(decoding: slice, as: UTF8.self) }
                guard let s = String(validating: slice, as: UTF8.self) else { throw JSONError(.invalidUTF8, at: start) }
                return s
            }
            ored |= byte
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw JSONError(.controlCharacter, at: position) }
            position += 1
        }
        throw JSONError(.unexpectedEnd, at: position)
    }

    private mutating func parseEscapedString(from start: Int) throws(JSONError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let s = String(validating: scratch, as: UTF8.self) else { throw JSONError(.invalidUTF8, at: start) }
                return s
            }
            if byte < 0x20 { throw JSONError(.controlCharacter, at: position) }
            if byte != UInt8(ascii: "\\") {
                scratch.append(byte)
                position += 1
                continue
            }
            position += 1
            guard position < bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"): appendScalar(try parseUnicodeEscape())
            default: throw JSONError(.invalidEscape, at: position - 1)
            }
        }
        throw JSONError(.unexpectedEnd, at: position)
    }

    /// Reads the hex digits after `\u` (and a following low surrogate escape when needed).
    private mutating func parseUnicodeEscape() throws(JSONError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw JSONError(.invalidEscape, at: position)
            }
            position += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw JSONError(.invalidEscape, at: position) }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw JSONError(.invalidEscape, at: position) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw JSONError(.invalidEscape, at: position) }
        return scalar
    }

    private mutating func parseHex4() throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONError(.invalidEscape, at: position)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func appendScalar(_ scalar: Unicode.Scalar) {
        scratch.append(contentsOf: UTF8.encode(scalar)!)
    }
}
