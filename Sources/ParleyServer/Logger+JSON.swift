extension Logger {
    /// One log event as a JSON object: `time`, `level`, `component`, `msg`, then the fields
    /// (all strings; a field named like one of the first four is written after them as well).
    static func jsonLine(time: String, level: Level, label: String, message: String, fields: [(String, String)]) -> String {
        var line = #"{"time":"# + jsonString(time) + #","level":"# + jsonString(level.rawValue)
            + #","component":"# + jsonString(label) + #","msg":"# + jsonString(message)
        for (key, value) in fields { line += ",\(jsonString(key)):\(jsonString(value))" }
        return line + "}"
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
