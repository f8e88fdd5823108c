import ParleyWireCore

/// Typed field access on a decoded JSON object, failing with ``ParleyError/Code/decoding``.
struct JSONReader {
    let object: JSONObject
    let context: String

    init(_ value: JSONValue?, _ context: String) throws(ParleyError) {
        guard let object = value?.objectValue else { throw ParleyError(.decoding, "\(context): expected an object") }
        self.object = object
        self.context = context
    }

    init(bytes: [UInt8], _ context: String) throws(ParleyError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw ParleyError(.decoding, "\(context): not JSON") }
        try self.init(value, context)
    }

    func string(_ key: String) throws(ParleyError) -> String {
        guard let value = object[key]?.stringValue else { throw missing(key) }
        return value
    }

    func optionalString(_ key: String) -> String? { object[key]?.stringValue }

    func int64(_ key: String) throws(ParleyError) -> Int64 {
        guard let value = optionalInt64(key) else { throw missing(key) }
        return value
    }

    func optionalInt64(_ key: String) -> Int64? {
        guard case .number(let text)? = object[key] else { return nil }
        return Int64(text)
    }

    func int(_ key: String) throws(ParleyError) -> Int { Int(try int64(key)) }

    func bool(_ key: String) throws(ParleyError) -> Bool {
        guard let value = object[key]?.boolValue else { throw missing(key) }
        return value
    }

    /// A boolean that may be absent (nil); present with another type is an error.
    func optionalBool(_ key: String) throws(ParleyError) -> Bool? {
        guard let value = object[key], value != .null else { return nil }
        guard let bool = value.boolValue else { throw missing(key) }
        return bool
    }

    func array(_ key: String) throws(ParleyError) -> [JSONValue] {
        guard let value = object[key]?.arrayValue else { throw missing(key) }
        return value
    }

    func nested(_ key: String) throws(ParleyError) -> JSONReader { try JSONReader(object[key], context + "." + key) }

    func value(_ key: String) -> JSONValue? { object[key] }

    private func missing(_ key: String) -> ParleyError {
        ParleyError(.decoding, "\(context): missing or mistyped field \(key)")
    }
}
