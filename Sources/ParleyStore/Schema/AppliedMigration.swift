/// A schema migration this process applied when it opened the database.
public struct AppliedMigration: Sendable, Equatable {
    /// The schema version it brought the database to.
    public let version: Int
    /// Its short description (as in `schema_migrations`).
    public let name: String
}
