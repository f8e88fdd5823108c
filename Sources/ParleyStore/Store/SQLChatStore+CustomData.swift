import ParleyWireCore

/// Custom data is kept as the JSON text the service wrote (its size limit counts those bytes)
/// and handed out as the value.
extension SQLChatStore {
    /// The value of a stored custom data column. The service only stores text it serialised
    /// itself, so text that does not parse (written by hand into the database) reads as absent,
    /// which the API shows as null, as it always did.
    static func customData(_ text: String?) -> JSONValue? {
        guard let text else { return nil }
        do { return try JSONParser.parse(text) } catch { return nil }
    }

    /// The column's text for a value read back from it.
    static func customDataText(_ value: JSONValue?) -> String? {
        value.map(JSONWriter.string)
    }
}
