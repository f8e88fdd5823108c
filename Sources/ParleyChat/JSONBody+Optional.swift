import ParleyWire

/// Optional typed fields (absent or null means not given).
extension JSONBody {
    /// An integer field that may be absent or null.
    func optionalInt64(_ key: String) throws(ChatError) -> Int64? {
        switch object[key] {
        case .none, .null?: return nil
        case .number(let text)?:
            guard let value = Self.integer(text) else { throw ChatError(.invalidRequest, "\(key) must be an integer") }
            return value
        default: throw ChatError(.invalidRequest, "\(key) must be an integer")
        }
    }

    /// A boolean field that may be absent or null.
    func optionalBool(_ key: String) throws(ChatError) -> Bool? {
        switch object[key] {
        case .none, .null?: return nil
        case .bool(let value)?: return value
        default: throw ChatError(.invalidRequest, "\(key) must be true or false")
        }
    }
}
