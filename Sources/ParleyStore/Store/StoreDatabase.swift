import Synchronization

/// An open database: the group-commit writers (the first migrated it at start) and the reader pool.
///
/// SQLite has one writer. PostgreSQL has `postgresWriterCount`, each on its own connection (so
/// its own server process): rooms are partitioned over them by ``WriteRoute``, everything else
/// goes to the first.
public final class StoreDatabase: Sendable {
    private let writers: [GroupCommitWriter]
    private let readers: ReaderPool
    /// Flushes the SQLite writer's log before its callers are answered (nil on PostgreSQL).
    let syncer: WALSyncer?
    /// Copies the SQLite log into the database file in the background (nil on PostgreSQL).
    private let checkpointer: WALCheckpointer?
    /// The timeline `PARLEY_STORE_TRACE` asked for (nil: none).
    let trace: StoreTrace?

    /// The engine behind the database.
    public let dialect: SQLDialect
    /// The migrations applied when this process opened the database (empty: it was current).
    public let appliedMigrations: [AppliedMigration]

    /// Opens the database at `configuration.location`, applying pending migrations first.
    ///
    /// Throws `schemaTooNew` when the database was migrated by a newer build, `connectionLost`
    /// when PostgreSQL cannot be reached, and `io` when the SQLite file cannot be opened.
    public static func open(_ configuration: StoreConfiguration) async throws -> StoreDatabase {
        let location = configuration.location
        // SQLite's log is fsynced and checkpointed by threads of their own; PostgreSQL needs neither.
        let sqlitePath: String? = if case .sqlite(let path) = location { path } else { nil }
        let trace = sqlitePath == nil ? nil : configuration.trace ?? StoreTrace.fromEnvironment()
        let syncer = sqlitePath.map { WALSyncer.start(databasePath: $0, trace: trace) }
        let checkpointer = sqlitePath.map { WALCheckpointer.start(path: $0, trace: trace) }
        var writers: [GroupCommitWriter] = []
        let applied = Mutex<[AppliedMigration]>([])
        let searchBatch = configuration.searchIndexBatch
        let merger =
            sqlitePath != nil && configuration.searchIndexMergesWhenIdle
            ? SearchIndexMerger(pagesPerStep: configuration.searchIndexMergePagesPerStep) : nil
        let flushSearchIndex: @Sendable (SQLContext) throws(StoreError) -> Void = { context throws(StoreError) in
            if try Schema.flushSearchIndex(context, batch: searchBatch) { merger?.noteFlushed() }
        }
        do {
            writers.append(
                try await GroupCommitWriter.start(
                    name: "parley-writer",
                    maxBatchSize: configuration.maxBatchSize,
                    clock: configuration.clock,
                    syncer: syncer,
                    trace: trace,
                    beforeCommit: sqlitePath == nil ? nil : flushSearchIndex,
                    idleWork: merger,
                    open: { try Self.connect(location, checkpointer: checkpointer) },
                    prepare: { context in
                        let done = try Migrator.migrate(context)
                        applied.withLock { $0 = done }
                    }))
            // The others start once the schema is current; SQLite keeps its single writer.
            let extra = sqlitePath == nil ? max(1, configuration.postgresWriterCount) - 1 : 0
            for index in 0..<extra {
                writers.append(
                    try await GroupCommitWriter.start(
                        name: "parley-writer\(index + 1)",
                        maxBatchSize: configuration.maxBatchSize,
                        clock: configuration.clock,
                        open: { try Self.connect(location, checkpointer: nil) },
                        prepare: { _ in }))
            }
        } catch {
            for writer in writers { await writer.close() }
            checkpointer?.close()
            trace?.close()
            throw error
        }
        do {
            let readers = try await ReaderPool.start(
                name: "parley-reader",
                count: configuration.readerCount,
                clock: configuration.clock,
                open: { try Self.connect(location, checkpointer: nil, readOnly: true) })
            return StoreDatabase(
                writers: writers, readers: readers, syncer: syncer, checkpointer: checkpointer,
                trace: trace, dialect: location.dialect, appliedMigrations: applied.withLock { $0 })
        } catch {
            for writer in writers { await writer.close() }
            trace?.close()
            throw error
        }
    }

    private init(
        writers: [GroupCommitWriter], readers: ReaderPool, syncer: WALSyncer?, checkpointer: WALCheckpointer?,
        trace: StoreTrace?, dialect: SQLDialect, appliedMigrations: [AppliedMigration]
    ) {
        self.trace = trace
        self.appliedMigrations = appliedMigrations
        self.writers = writers
        self.readers = readers
        self.syncer = syncer
        self.checkpointer = checkpointer
        self.dialect = dialect
    }

    /// A connection to `location`: a reader, or the writer (on SQLite handing its checkpoints to `checkpointer`).
    private static func connect(
        _ location: StoreLocation, checkpointer: WALCheckpointer?,
        readOnly: Bool = false
    ) throws(StoreError) -> any SQLConnection {
        switch location {
        case .sqlite(let path):
            if readOnly { return try SQLiteConnection(path: path, role: .reader) }
            return try SQLiteConnection(path: path, role: .writer(checkpointer: checkpointer, syncedElsewhere: true))
        case .postgres(let url):
            return try PostgresConnection(url: url)
        }
    }

    /// Runs `operation` on the writer and returns its result once the transaction carrying it committed.
    ///
    /// Operations arriving while a commit is in flight share the next transaction; each runs
    /// in its own savepoint, so when it throws only its own writes are undone and only its
    /// caller gets the error. Cancelling the calling task does not withdraw a queued write.
    /// Runs on the general writer; see ``write(route:_:)`` for writes to one room.
    public func write<T: Sendable>(_ operation: @escaping @Sendable (SQLContext) throws -> T) async throws -> T {
        try await writers[0].submit(operation)
    }

    /// Like ``write(_:)``, on the writer `route` names (writes to one room keep their order there).
    func write<T: Sendable>(route: WriteRoute, _ operation: @escaping @Sendable (SQLContext) throws -> T) async throws -> T {
        try await writer(for: route).submit(operation)
    }

    /// The writer of the pool `route` goes to.
    private func writer(for route: WriteRoute) -> GroupCommitWriter {
        writers[route.writerIndex(of: writers.count)]
    }

    /// How many writer connections the database has (1 on SQLite).
    public var writerCount: Int { writers.count }

    /// Runs a single-statement write: `statement` (built for the operation's time) runs on the
    /// writer, the first row of its answer goes through `decode`, and `complete` turns that into
    /// the result once the statement ran (it may query further). Runs of these share one pipeline;
    /// neighbours with the same `coalescing` statement go out as one statement over all their arguments.
    ///
    /// The statement must write nothing when `complete` is going to throw, and it may raise an
    /// error only for what is truly exceptional (the writer then redoes its run one by one).
    func writeStatement<Row, T: Sendable>(
        _ statement: @escaping @Sendable (Int64) -> SQLStatement,
        decode: @escaping @Sendable (any SQLRow) throws -> Row,
        complete: @escaping @Sendable (SQLContext, Row?) throws -> T,
        coalescing: (statement: CoalescedStatement, arguments: [String?])? = nil,
        route: WriteRoute = .general
    ) async throws -> T {
        try await writer(for: route).submit(statement: statement, decode: decode, complete: complete, coalescing: coalescing)
    }

    /// Runs `operation` on a reader connection; it sees every write acknowledged before it started,
    /// and its answer waits until whatever it may have seen is durable.
    public func read<T: Sendable>(_ operation: @escaping @Sendable (SQLContext) throws -> T) async throws -> T {
        let value = try await readers.submit(operation)
        await syncer?.waitUntilDurable()
        return value
    }

    /// The writers' counters (transactions vs operations, queue depth), summed over the pool.
    public var writerStatistics: WriterStatistics {
        writers.map(\.currentStatistics).reduce(into: WriterStatistics()) { $0.add($1) }
    }

    /// Each writer's queue depth, in pool order (the general writer first).
    public var writerQueueDepths: [Int] {
        writers.map(\.currentStatistics.queued)
    }

    /// The writer's, the log syncer's and the checkpointer's counters.
    public var statistics: StoreStatistics {
        var statistics = StoreStatistics()
        statistics.engine = dialect
        statistics.readers = readers.statistics
        statistics.writer = writerStatistics
        statistics.writerQueues = writerQueueDepths
        if let sync = syncer?.currentStatistics {
            statistics.logSyncs = sync.syncs
            statistics.syncedBatches = sync.batches
            statistics.logSyncFailures = sync.failures
            statistics.logSyncDurations = sync.durations
        }
        if let checkpoints = checkpointer?.currentStatistics {
            statistics.backgroundCheckpoints = checkpoints.background
            statistics.checkpointCatchUps = checkpoints.catchUps
            statistics.logRestarts = checkpoints.restarts
            statistics.limitCheckpoints = checkpoints.byWriter
            statistics.restartFileSyncs = checkpoints.fileSyncs
            statistics.checkpointFailures = checkpoints.failures + checkpoints.busy
        }
        return statistics
    }

    /// Finishes queued writes and reads, then closes every connection. Later calls fail with `closed`.
    public func close() async {
        for writer in writers { await writer.close() }
        await readers.close()
        trace?.close()
    }
}
