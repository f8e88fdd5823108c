/// A JSON value: the result of `JSONParser` and the input of `JSONWriter`.
///
/// Numbers keep their textual form exactly as parsed (or as produced by the helpers), so
/// a value round-trips without precision loss and identifiers such as `"user_id": 10`
/// can be turned back into the digits the client sent.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number in its JSON textual form (already validated against the JSON grammar).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keeping key order.
    case object(JSONObject)

    /// A number value from an integer.
    public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The string payload, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The object payload, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The array payload, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The boolean payload, if this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number as an integer, if it is an integral number that fits in `Int`.
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let i = Int(text) { return i }
        // `10.0` is integral too; exponents are not worth supporting for identifiers.
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[1].allSatisfy({ $0 == "0" }) else { return nil }
        return Int(parts[0])
    }

    /// The number as a `Double`, if this is a number.
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// Member lookup when this is an object; nil otherwise.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}
