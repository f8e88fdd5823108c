/// The `ChatStore` on an SQL database: SQLite or PostgreSQL, with the same schema and semantics.
///
/// Writes go through the database's group-commit writer, reads through its reader pool.
/// Every statement is parameterised and prepared once per connection.
public final class SQLChatStore: ChatStore {
    /// The database underneath, for operations beyond the chat domain and for statistics.
    public let database: StoreDatabase
    /// The limits checked on writes.
    public let limits: StoreLimits

    /// Opens (and migrates) the database described by `configuration`.
    public static func open(_ configuration: StoreConfiguration) async throws -> SQLChatStore {
        let database = try await StoreDatabase.open(configuration)
        return SQLChatStore(database: database, limits: configuration.limits)
    }

    /// A chat store over an already opened database.
    public init(database: StoreDatabase, limits: StoreLimits = StoreLimits()) {
        self.database = database
        self.limits = limits
    }

    /// The writer's counters: how many operations shared how many transactions.
    public var writerStatistics: WriterStatistics {
        database.writerStatistics
    }

    /// The writer's, log syncer's and checkpointer's counters, for `/metrics`.
    public var statistics: StoreStatistics {
        database.statistics
    }

    /// Finishes queued work and closes the database.
    public func close() async {
        await database.close()
    }

    /// Runs a write operation on the general group-commit writer (users, direct rooms, devices, attachments).
    func write<T: Sendable>(_ operation: @escaping @Sendable (SQLContext) throws -> T) async throws -> T {
        try await database.write(operation)
    }

    /// Runs a write operation about one room on that room's writer, so the room's writes keep their order.
    func write<T: Sendable>(
        app: String, room: String, _ operation: @escaping @Sendable (SQLContext) throws -> T
    ) async throws -> T {
        // A single writer (SQLite) has no partitions: skip hashing the names on every send.
        let route: WriteRoute = database.writerCount > 1 ? .room(app: app, room: room) : .general
        return try await database.write(route: route, operation)
    }

    /// Runs a read operation on a reader connection.
    func read<T: Sendable>(_ operation: @escaping @Sendable (SQLContext) throws -> T) async throws -> T {
        try await database.read(operation)
    }
}
