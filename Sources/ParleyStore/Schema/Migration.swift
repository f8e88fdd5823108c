/// One versioned step of the schema, written once per engine.
struct Migration: Sendable {
    /// The version this migration brings the schema to; versions start at 1 and have no gaps.
    let version: Int
    /// A short description, recorded in `schema_migrations`.
    let name: String
    /// The statements for SQLite, separated by semicolons.
    let sqlite: String
    /// The statements for PostgreSQL, separated by semicolons.
    let postgres: String
    /// Work after the script that SQL alone cannot do (on `context`, in the migration's
    /// transaction), such as computing a column in Swift for the rows already stored.
    var afterScript: (@Sendable (SQLContext) throws -> Void)? = nil

    /// The script for `dialect`.
    func script(for dialect: SQLDialect) -> String {
        dialect == .sqlite ? sqlite : postgres
    }
}
