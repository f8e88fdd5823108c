/// A value bound to a statement parameter; the common ground of SQLite and PostgreSQL types.
public enum SQLValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit integer (SQLite INTEGER, PostgreSQL BIGINT).
    case integer(Int64)
    /// A double-precision number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes (SQLite BLOB, PostgreSQL BYTEA).
    case blob([UInt8])

    /// Text, or NULL when the optional is empty.
    public static func text(_ value: String?) -> SQLValue {
        value.map(SQLValue.text) ?? .null
    }

    /// An integer, or NULL when the optional is empty.
    public static func integer(_ value: Int64?) -> SQLValue {
        value.map(SQLValue.integer) ?? .null
    }

    /// An `Int` as a 64-bit integer.
    public static func int(_ value: Int) -> SQLValue {
        .integer(Int64(value))
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    /// Text from a literal.
    public init(stringLiteral value: String) { self = .text(value) }
    /// An integer from a literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// NULL from `nil`.
    public init(nilLiteral: ()) { self = .null }
}
