import ParleyWire

extension Logger {
    /// One log event as a JSON object: `time`, `level`, `component`, `msg`, then the fields
    /// (all strings; a field named like one of the first four is written after them as well).
    static func jsonLine(time: String, level: Level, label: String, message: String, fields: [(String, String)]) -> String {
        var line =
            #"{"time":"# + jsonString(time) + #","level":"# + jsonString(level.rawValue)
            + #","component":"# + jsonString(label) + #","msg":"# + jsonString(message)
        for (key, value) in fields { line += ",\(jsonString(key)):\(jsonString(value))" }
        return line + "}"
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String { JSONWriter.quoted(text) }
}
