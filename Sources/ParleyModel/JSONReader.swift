import ParleyWireCore

/// Typed field access on a decoded JSON object, failing with ``ParleyError/Code/decoding``
/// and a message naming the value and the field.
public struct JSONReader {
    /// The object read.
    public let object: JSONObject
    /// What the object is (`message`, `room.summary`), for error messages.
    public let context: String

    /// Reads `value`, which must be an object.
    public init(_ value: JSONValue?, _ context: String) throws(ParleyError) {
        guard let object = value?.objectValue else { throw ParleyError(.decoding, "\(context): expected an object") }
        self.object = object
        self.context = context
    }

    /// Parses `bytes`, which must hold a JSON object.
    public init(bytes: [UInt8], _ context: String) throws(ParleyError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw ParleyError(.decoding, "\(context): not JSON") }
        try self.init(value, context)
    }

    /// A string member.
    public func string(_ key: String) throws(ParleyError) -> String {
        guard let value = object[key]?.stringValue else { throw missing(key) }
        return value
    }

    /// A string member, nil when absent or of another type.
    public func optionalString(_ key: String) -> String? { object[key]?.stringValue }

    /// An integer member.
    public func int64(_ key: String) throws(ParleyError) -> Int64 {
        guard let value = optionalInt64(key) else { throw missing(key) }
        return value
    }

    /// An integer member, nil when absent, null or of another type.
    public func optionalInt64(_ key: String) -> Int64? {
        guard case .number(let text)? = object[key] else { return nil }
        return Int64(text)
    }

    /// A string member that may be absent or null (nil); present with another type is an error.
    public func stringIfPresent(_ key: String) throws(ParleyError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw missing(key) }
        return text
    }

    /// An integer member that may be absent or null (nil); present with another type is an error.
    public func int64IfPresent(_ key: String) throws(ParleyError) -> Int64? {
        guard let value = object[key], value != .null else { return nil }
        guard case .number(let text) = value, let number = Int64(text) else { throw missing(key) }
        return number
    }

    /// An array member that may be absent or null (empty); present with another type is an error.
    public func arrayIfPresent(_ key: String) throws(ParleyError) -> [JSONValue] {
        guard let value = object[key], value != .null else { return [] }
        guard let array = value.arrayValue else { throw missing(key) }
        return array
    }

    /// An integer member as `Int`.
    public func int(_ key: String) throws(ParleyError) -> Int { Int(try int64(key)) }

    /// A boolean member.
    public func bool(_ key: String) throws(ParleyError) -> Bool {
        guard let value = object[key]?.boolValue else { throw missing(key) }
        return value
    }

    /// A boolean that may be absent (nil); present with another type is an error.
    public func optionalBool(_ key: String) throws(ParleyError) -> Bool? {
        guard let value = object[key], value != .null else { return nil }
        guard let bool = value.boolValue else { throw missing(key) }
        return bool
    }

    /// An array member.
    public func array(_ key: String) throws(ParleyError) -> [JSONValue] {
        guard let value = object[key]?.arrayValue else { throw missing(key) }
        return value
    }

    /// An object member, read with its own reader.
    public func nested(_ key: String) throws(ParleyError) -> JSONReader { try JSONReader(object[key], context + "." + key) }

    /// A member as it is, nil when absent.
    public func value(_ key: String) -> JSONValue? { object[key] }

    private func missing(_ key: String) -> ParleyError {
        ParleyError(.decoding, "\(context): missing or mistyped field \(key)")
    }
}
