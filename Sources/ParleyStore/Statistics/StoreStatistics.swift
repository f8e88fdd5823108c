/// What a store's machinery has done since it opened: group commits, fsyncs of the SQLite log
/// and checkpoints — for `/metrics`, so an operator can see batching and checkpoint behaviour.
public struct StoreStatistics: Sendable, Hashable {
    /// The engine: which of the counters below mean anything (the SQLite log's are 0 on PostgreSQL).
    public var engine: SQLDialect = .sqlite
    /// The reader pool's connections, reads in progress and queued, failures.
    public var readers = ReaderStatistics()
    /// The group-commit writers' counters, summed over the pool.
    public var writer = WriterStatistics()
    /// Operations waiting for each writer of the pool right now (the general writer first).
    public var writerQueues: [Int] = []
    /// fsyncs of the SQLite log, and the committed batches they made durable (0 on PostgreSQL).
    public var logSyncs = 0
    /// Committed batches made durable by those fsyncs (more than `logSyncs` when they pipeline).
    public var syncedBatches = 0
    /// fsyncs of the log that failed (the store then refuses writes until restart).
    public var logSyncFailures = 0
    /// How long the fsyncs of the log took (a slow disk shows here first).
    public var logSyncDurations = DurationHistogram()
    /// fsyncs of the database file run before the log started over (off the writer's thread).
    public var restartFileSyncs = 0
    /// Background checkpoint passes that completed.
    public var backgroundCheckpoints = 0
    /// Times the writer copied the last frames itself so the log could start over.
    public var checkpointCatchUps = 0
    /// Times the log started over.
    public var logRestarts = 0
    /// Checkpoints the writer ran because the log reached its limit.
    public var limitCheckpoints = 0
    /// Background checkpoint passes that failed or found the checkpoint lock taken.
    public var checkpointFailures = 0

    /// Zeroed counters.
    public init() {}
}
