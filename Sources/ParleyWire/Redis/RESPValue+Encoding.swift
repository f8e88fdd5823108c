extension RESPValue {
    /// Appends this value's wire form: RESP2 for the RESP2 types, RESP3 for the rest (`_`
    /// for ``null``). What the parser reads back from it is this value again.
    public func encode(into out: inout [UInt8]) {
        switch self {
        case .simpleString(let text): Self.line(UInt8(ascii: "+"), Self.singleLine(text), into: &out)
        case .error(let text): Self.line(UInt8(ascii: "-"), Self.singleLine(text), into: &out)
        case .integer(let value): Self.line(UInt8(ascii: ":"), String(value), into: &out)
        case .bulkString(let bytes): Self.bulk(UInt8(ascii: "$"), bytes, into: &out)
        case .null: out.append(contentsOf: [UInt8(ascii: "_"), 13, 10])
        case .boolean(let value): Self.line(UInt8(ascii: "#"), value ? "t" : "f", into: &out)
        case .double(let value): Self.line(UInt8(ascii: ","), Self.doubleText(value), into: &out)
        case .bigNumber(let digits): Self.line(UInt8(ascii: "("), digits, into: &out)
        case .verbatim(let format, let text):
            let head = Array(format.utf8.prefix(3)) + Array(repeating: UInt8(ascii: " "), count: max(0, 3 - format.utf8.count))
            Self.bulk(UInt8(ascii: "="), head + [UInt8(ascii: ":")] + text, into: &out)
        case .array(let values): Self.aggregate(UInt8(ascii: "*"), values, into: &out)
        case .set(let values): Self.aggregate(UInt8(ascii: "~"), values, into: &out)
        case .push(let values): Self.aggregate(UInt8(ascii: ">"), values, into: &out)
        case .map(let pairs):
            Self.line(UInt8(ascii: "%"), String(pairs.count), into: &out)
            for pair in pairs {
                pair.key.encode(into: &out)
                pair.value.encode(into: &out)
            }
        }
    }

    /// This value's wire form.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private static func line(_ type: UInt8, _ text: String, into out: inout [UInt8]) {
        out.append(type)
        out.append(contentsOf: text.utf8)
        out.append(contentsOf: [13, 10])
    }

    private static func bulk(_ type: UInt8, _ bytes: [UInt8], into out: inout [UInt8]) {
        line(type, String(bytes.count), into: &out)
        out.append(contentsOf: bytes)
        out.append(contentsOf: [13, 10])
    }

    private static func aggregate(_ type: UInt8, _ values: [RESPValue], into out: inout [UInt8]) {
        line(type, String(values.count), into: &out)
        for value in values { value.encode(into: &out) }
    }

    /// A simple string cannot hold CR or LF; they become spaces rather than break the framing.
    private static func singleLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 13 || $0 == 10 }) else { return text }
        return String(decoding: text.utf8.map { $0 == 13 || $0 == 10 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    private static func doubleText(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return "\(value)"
    }
}
