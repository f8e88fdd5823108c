/// What the WAL syncer has done: how many fsyncs made how many committed batches durable.
struct SyncStatistics: Sendable, Equatable {
    /// fsyncs of the log.
    var syncs = 0
    /// Committed batches those fsyncs covered (more batches than fsyncs: the pipeline at work).
    var batches = 0
    /// fsyncs that failed (their batches' callers got the error).
    var failures = 0
    /// How long the fsyncs took.
    var durations = DurationHistogram()
}
