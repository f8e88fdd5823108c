import ParleyWireCore

// The number and null forms every wire value writes: 64-bit integers as their decimal text
// (milliseconds, ids and seqs pass 2^53, so never through Double), absent values as null.
extension JSONValue {
    /// A 64-bit integer.
    public static func int64(_ value: Int64) -> JSONValue { .number(String(value)) }

    /// A string, or null.
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// A 64-bit integer, or null.
    public static func optional(_ value: Int64?) -> JSONValue { value.map(int64) ?? .null }

    /// An integer, or null.
    public static func optional(_ value: Int?) -> JSONValue { value.map(int) ?? .null }
}
