/// The query string of an HTTP API request, kept both as received and percent-decoded.
public struct PusherQuery: Sendable, Equatable {
    /// One `key=value` parameter.
    public struct Parameter: Sendable, Equatable {
        /// The decoded key.
        public var key: String
        /// The value exactly as received (still percent-encoded).
        public var rawValue: String
        /// The percent-decoded value (`+` as space).
        public var value: String
    }

    /// The parameters in order.
    public var parameters: [Parameter]

    /// Parses the part of a request target after `?` (without the `?`).
    public init(parsing query: Substring) {
        // Byte-wise: every HTTP API request parses its signed query, and walking String indices
        // with split() cost more than the HMAC that checks it.
        if let parsed = query.utf8.withContiguousStorageIfAvailable(Self.parameters(in:)) {
            parameters = parsed
        } else {
            parameters = Array(query.utf8).withUnsafeBufferPointer(Self.parameters(in:))
        }
    }

    private static func parameters(in bytes: UnsafeBufferPointer<UInt8>) -> [Parameter] {
        var result: [Parameter] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "&") { end += 1 }
            if end > start { result.append(parameter(UnsafeBufferPointer(rebasing: bytes[start..<end]))) }
            start = end + 1
        }
        return result
    }

    private static func parameter(_ pair: UnsafeBufferPointer<UInt8>) -> Parameter {
        let equals = pair.firstIndex(of: UInt8(ascii: "="))
        let rawKey = UnsafeBufferPointer(rebasing: pair[..<(equals ?? pair.count)])
        let rawValue = equals.map { UnsafeBufferPointer(rebasing: pair[($0 + 1)...]) } ?? UnsafeBufferPointer(rebasing: pair[pair.count...])
        let rawValueText = String(decoding: rawValue, as: UTF8.self)
        return Parameter(
            key: decodedOrRaw(rawKey), rawValue: rawValueText,
            value: needsDecoding(rawValue) ? (percentDecode(rawValue) ?? rawValueText) : rawValueText)
    }

    /// The decoded component, or the component as received when its escapes are malformed.
    private static func decodedOrRaw(_ component: UnsafeBufferPointer<UInt8>) -> String {
        guard needsDecoding(component) else { return String(decoding: component, as: UTF8.self) }
        return percentDecode(component) ?? String(decoding: component, as: UTF8.self)
    }

    private static func needsDecoding(_ component: UnsafeBufferPointer<UInt8>) -> Bool {
        component.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
    }

    /// Creates a query from decoded key/value pairs (raw form = decoded form).
    public init(_ pairs: [(String, String)]) {
        parameters = pairs.map { Parameter(key: $0.0, rawValue: $0.1, value: $0.1) }
    }

    /// The decoded value of the first parameter with this key.
    public subscript(key: String) -> String? {
        parameters.first { $0.key == key }?.value
    }

    /// Percent-decodes a query component (`+` is a space); nil on a malformed escape or invalid UTF-8.
    public static func percentDecode(_ text: Substring) -> String? {
        percentDecode(text.utf8)
    }

    private static func percentDecode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): out.append(0x20)
            case UInt8(ascii: "%"):
                guard let h = iterator.next().flatMap(hexValue), let l = iterator.next().flatMap(hexValue) else { return nil }
                out.append(h << 4 | l)
            default: out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
