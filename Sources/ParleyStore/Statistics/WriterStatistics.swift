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
    /// Single-statement operations that went to the database in a pipeline with others.
    public var pipelinedOperations = 0
    /// Of those, operations that went out as part of one statement for several (`CoalescedStatement`).
    public var coalescedOperations = 0
    /// Pipelines in which a statement raised an error, so their operations were redone one by one.
    public var pipelineRetries = 0
    /// Round trips the writer's connection made to the database server (0 for SQLite).
    public var roundTrips = 0
    /// Operations waiting for the writer right now.
    public var queued = 0
    /// Transactions rolled back because PostgreSQL found a deadlock or serialization failure, then run again.
    public var contentionRetries = 0
    /// Steps of idle work committed (SQLite: steps merging the search index's segments, run
    /// while no write was queued).
    public var idleSteps = 0
    /// Time those steps took, transaction included, in nanoseconds.
    public var idleStepNanoseconds = 0
    /// The longest of them, in nanoseconds: about the longest a write arriving meanwhile waited.
    public var longestIdleStepNanoseconds = 0

    /// Creates zeroed counters.
    public init() {}
}

extension WriterStatistics {
    /// Adds another writer's counters (the largest batch is the larger of the two).
    mutating func add(_ other: WriterStatistics) {
        transactions += other.transactions
        operations += other.operations
        largestBatch = max(largestBatch, other.largestBatch)
        sharedTransactions += other.sharedTransactions
        failedBatches += other.failedBatches
        pipelinedOperations += other.pipelinedOperations
        coalescedOperations += other.coalescedOperations
        pipelineRetries += other.pipelineRetries
        roundTrips += other.roundTrips
        queued += other.queued
        contentionRetries += other.contentionRetries
        idleSteps += other.idleSteps
        idleStepNanoseconds += other.idleStepNanoseconds
        longestIdleStepNanoseconds = max(longestIdleStepNanoseconds, other.longestIdleStepNanoseconds)
    }
}
