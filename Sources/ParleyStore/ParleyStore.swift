

/// Persistence: the store interface, its SQLite and PostgreSQL engines, migrations and the group-commit writer.
public enum ParleyStoreInfo {
    /// The module's name, used in diagnostics.
    public static let name = "ParleyStore"
}
