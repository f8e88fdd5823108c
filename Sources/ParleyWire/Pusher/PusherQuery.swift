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
        parameters = query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawKey = parts[0], rawValue = parts.count > 1 ? parts[1] : ""
            return Parameter(key: Self.percentDecode(rawKey) ?? String(rawKey), rawValue: String(rawValue),
                             value: Self.percentDecode(rawValue) ?? String(rawValue))
        }
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
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
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
