/// Brings a database to the newest schema this build knows, and refuses databases from newer builds.
enum Migrator {
    /// A number PostgreSQL nodes lock on so only one of them migrates at a time.
    private static let advisoryLockKey: Int64 = 0x7061_726C_6579  // "parley"

    /// Applies every migration newer than the database's version, all in one transaction,
    /// and returns those it applied (oldest first; empty when the schema was current).
    ///
    /// Throws `schemaTooNew` (before changing anything) when the database already carries
    /// a version this build does not know.
    @discardableResult
    static func migrate(_ context: SQLContext, migrations: [Migration] = Schema.migrations) throws -> [AppliedMigration] {
        var applied: [AppliedMigration] = []
        let latest = migrations.map(\.version).max() ?? 0
        try context.connection.run(context.dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            if context.dialect == .postgres {
                try context.execute("SELECT pg_advisory_xact_lock(\(advisoryLockKey))")
            }
            try context.connection.run(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version BIGINT PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at BIGINT NOT NULL
                )
                """)
            let current = try currentVersion(context)
            guard current <= latest else {
                throw StoreError(
                    .schemaTooNew,
                    "the database schema is at version \(current), newer than the newest this build of Parley knows (\(latest)); use a newer Parley"
                )
            }
            for migration in migrations.sorted(by: { $0.version < $1.version }) where migration.version > current {
                let script = migration.script(for: context.dialect)
                if !script.isEmpty { try context.connection.run(script) }  // some steps concern one engine only
                try migration.afterScript?(context)
                try context.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    [.int(migration.version), .text(migration.name), .integer(context.now)])
                applied.append(AppliedMigration(version: migration.version, name: migration.name))
            }
            try context.connection.run("COMMIT")
            return applied
        } catch {
            try? context.connection.run("ROLLBACK")
            throw error
        }
    }

    /// The highest version recorded in `schema_migrations` (0 for an empty database).
    static func currentVersion(_ context: SQLContext) throws -> Int {
        try context.queryFirst("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") { $0.int(0) } ?? 0
    }
}
