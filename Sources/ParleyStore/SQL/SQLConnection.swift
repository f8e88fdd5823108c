/// One open database connection, confined to the thread that opened it.
///
/// Statements use PostgreSQL-style numbered parameters (`$1`, `$2`…) on both engines;
/// the SQLite connection rewrites them once when it prepares a statement. Implementations
/// cache prepared statements by their SQL text, so hot statements are parsed once.
protocol SQLConnection: AnyObject {
    /// The engine behind the connection.
    var dialect: SQLDialect { get }

    /// Runs a statement and returns the number of rows it changed.
    func execute(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> Int

    /// Runs a query and hands each result row to `body`.
    func query(_ sql: String, _ parameters: [SQLValue], _ body: (any SQLRow) throws -> Void) throws

    /// Runs a parameterless control statement (BEGIN, SAVEPOINT, COMMIT…) or a script of several statements.
    func run(_ sql: String) throws(StoreError)

    /// Whether the connection still works; a lost server connection answers false.
    var isHealthy: Bool { get }

    /// Tries to re-establish a lost connection; forgets prepared statements.
    func reconnect() throws(StoreError)

    /// Runs `statements` in order as one pipeline — on a server, all sent before any answer is
    /// read, so the run costs one round trip — handing each result row to `row` with its
    /// statement's index. When one fails the rest do not run and its error is thrown.
    func pipeline(_ statements: [SQLStatement], _ row: (Int, any SQLRow) -> Void) throws(StoreError)

    /// How many times the connection waited for the database server (0 for an embedded database).
    var roundTrips: Int { get }

    /// The row id of the last row this connection inserted (SQLite; nil where there is none).
    var lastInsertRowID: Int64? { get }

    /// Work the connection put off from inside a COMMIT until the committed batch was handed on
    /// (SQLite: the writer's share of a checkpoint); the writer calls it after every commit.
    /// `waitUntilDurable` blocks until every commit so far is durable.
    func afterCommit(waitUntilDurable: () -> Void)

    /// Whether the next COMMIT must wait (SQLite: for the database file's fsync that lets the
    /// log start over); the writer goes on running operations meanwhile.
    var holdsNextCommit: Bool { get }

    /// Called right before COMMIT once `holdsNextCommit` is false; throws when what the hold
    /// waited for failed (the transaction must then not commit).
    func releaseCommitHold() throws(StoreError)

    /// Sets what to call (from any thread) when a hold of the next COMMIT may have ended.
    func setCommitHoldHandler(_ handler: @escaping @Sendable () -> Void)
}

extension SQLConnection {
    /// Nothing put off, by default.
    func afterCommit(waitUntilDurable: () -> Void) {}

    /// No hold, by default.
    var holdsNextCommit: Bool { false }

    /// Nothing to release, by default.
    func releaseCommitHold() throws(StoreError) {}

    /// No hold to end, by default.
    func setCommitHoldHandler(_ handler: @escaping @Sendable () -> Void) {}

    /// No row ids, by default.
    var lastInsertRowID: Int64? { nil }
}
