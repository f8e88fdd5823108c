/// Counters of the group-commit writer: how many operations went into how many transactions.
public struct WriterStatistics: Sendable, Hashable {
    /// Transactions committed.
    public var transactions = 0
    /// Operations acknowledged by those transactions (including ones that failed on their own).
    public var operations = 0
    /// The most operations one transaction carried.
    public var largestBatch = 0
    /// Transactions that carried more than one operation.
    public var sharedTransactions = 0
    /// Batches whose BEGIN or COMMIT failed (every operation in them got the error).
    public var failedBatches = 0
    /// Operations waiting for the writer right now.
    public var queued = 0

    /// Creates zeroed counters.
    public init() {}
}
