/// A value bound to or read from a SQLite statement.
enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case null

    var int64: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}
