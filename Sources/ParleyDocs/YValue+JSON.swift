import ParleyText
import ParleyWire

/// Document content as JSON: what the REST API answers.
extension YValue {
    /// The value as JSON: binary as standard base64 text, JSON kept as text parsed (null when
    /// it does not parse), numbers that are not finite as null, object keys sorted.
    public var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .integer(let value): return .number(String(value))
        case .number(let value): return value.isFinite ? .number(Self.jsonNumber(value)) : .null
        case .string(let value): return .string(value)
        case .binary(let bytes): return .string(Base64.encode(bytes))
        case .array(let values): return .array(values.map(\.jsonValue))
        case .object(let object):
            return .object(JSONObject(object.keys.sorted().map { (key: $0, value: object[$0]!.jsonValue) }))
        case .json(let text):
            return (try? JSONParser.parse(text)) ?? .null
        }
    }

    /// A finite double in JSON's number grammar (integral values without a fraction).
    private static func jsonNumber(_ value: Double) -> String {
        if value.rounded() == value, value.magnitude < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
