/// A JSON value through any `Encoder`/`Decoder` (JSONEncoder, a property list coder…), so
/// values holding one (custom data) can be `Codable`. Numbers keep their text when they encode
/// as integers or doubles; object members keep their order when encoding.
extension JSONValue: Codable {
    /// Reads any JSON-shaped value.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: JSONCodingKey.self) {
            var members: [(key: String, value: JSONValue)] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append((key.stringValue, try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(JSONObject(members))
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .number(String(value))
        } else if let value = try? single.decode(Double.self) {
            self = .number(String(value))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Writes the value; a number whose text is neither an integer nor a double fails.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let text):
            var single = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try single.encode(integer)
            } else if let double = Double(text) {
                try single.encode(double)
            } else {
                throw EncodingError.invalidValue(
                    text,
                    EncodingError.Context(
                        codingPath: encoder.codingPath,
                        debugDescription: "not a JSON number: \(text)"))
            }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: JSONCodingKey.self)
            for (key, value) in object { try container.encode(value, forKey: JSONCodingKey(stringValue: key)) }
        }
    }
}

/// Any string as a coding key (the members of a JSON object).
struct JSONCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}
