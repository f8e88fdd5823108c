/// How to open a store.
public struct StoreConfiguration: Sendable {
    /// The database to use.
    public var location: StoreLocation
    /// Reader connections (each on its own thread) serving reads in parallel to the writer.
    public var readerCount: Int
    /// The most operations the writer puts into one transaction.
    public var maxBatchSize: Int
    /// Writer connections on PostgreSQL, rooms partitioned over them (SQLite always has one writer).
    public var postgresWriterCount: Int
    /// Limits checked on writes.
    public var limits: StoreLimits
    /// The clock rows are stamped with.
    public var clock: StoreClock
    /// SQLite: how many message ids may be given above the search index's watermark before a
    /// commit moves those messages into the full-text index in one statement (searches read them
    /// from the messages table until then, so they find them at once); 1 indexes every commit's
    /// messages in that commit.
    public var searchIndexBatch = StoreConfiguration.defaultSearchIndexBatch

    /// The ids above the watermark that move their messages into the index unless told otherwise.
    public static let defaultSearchIndexBatch = 1_024
    /// SQLite: whether the writer merges the search index's segments while no write is queued
    /// (``SearchIndexMerger``); off only to measure or test an index as writes leave it.
    public var searchIndexMergesWhenIdle = true
    /// Leaf pages of the search index one idle merge step writes (tests make it small).
    var searchIndexMergePagesPerStep = SearchIndexMerger.defaultPagesPerStep
    /// Where the SQLite store records its timeline; nil: the file `PARLEY_STORE_TRACE` names, if any.
    var trace: StoreTrace?

    /// The writer connections PostgreSQL gets unless told otherwise.
    public static let defaultPostgresWriterCount = 4

    /// A configuration for `location` with the defaults: 2 readers, batches of up to 512 operations,
    /// 4 writers on PostgreSQL.
    public init(
        location: StoreLocation, readerCount: Int = 2, maxBatchSize: Int = 512,
        postgresWriterCount: Int = StoreConfiguration.defaultPostgresWriterCount,
        limits: StoreLimits = StoreLimits(), clock: StoreClock = .system
    ) {
        self.location = location
        self.readerCount = readerCount
        self.maxBatchSize = maxBatchSize
        self.postgresWriterCount = postgresWriterCount
        self.limits = limits
        self.clock = clock
    }
}
