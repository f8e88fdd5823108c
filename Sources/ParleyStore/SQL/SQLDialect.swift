/// The SQL engine behind a connection, for the few places where statements differ.
public enum SQLDialect: String, Sendable, Hashable {
    /// SQLite 3 (embedded).
    case sqlite
    /// PostgreSQL (over libpq).
    case postgres
}
