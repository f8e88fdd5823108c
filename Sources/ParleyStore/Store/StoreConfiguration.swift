/// How to open a store.
public struct StoreConfiguration: Sendable {
    /// The database to use.
    public var location: StoreLocation
    /// Reader connections (each on its own thread) serving reads in parallel to the writer.
    public var readerCount: Int
    /// The most operations the writer puts into one transaction.
    public var maxBatchSize: Int
    /// Limits checked on writes.
    public var limits: StoreLimits
    /// The clock rows are stamped with.
    public var clock: StoreClock
    /// Where the SQLite store records its timeline; nil: the file `PARLEY_STORE_TRACE` names, if any.
    var trace: StoreTrace?

    /// A configuration for `location` with the defaults: 2 readers, batches of up to 512 operations.
    public init(
        location: StoreLocation, readerCount: Int = 2, maxBatchSize: Int = 512,
        limits: StoreLimits = StoreLimits(), clock: StoreClock = .system
    ) {
        self.location = location
        self.readerCount = readerCount
        self.maxBatchSize = maxBatchSize
        self.limits = limits
        self.clock = clock
    }
}
