import ParleyStore

/// The store's counters in Prometheus text format (appended to `/metrics` when a store is open).
enum StoreMetrics {
    /// The exposition of `statistics`: group commit, log fsyncs, checkpoints.
    static func render(_ statistics: StoreStatistics) -> String {
        var out = ""
        func line(_ name: String, _ type: String, _ help: String, _ value: Int) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        let writer = statistics.writer
        line("parley_store_transactions_total", "counter", "Transactions the group-commit writer committed.", writer.transactions)
        line("parley_store_operations_total", "counter", "Write operations those transactions carried.", writer.operations)
        line("parley_store_largest_batch", "gauge", "Most operations one transaction carried.", writer.largestBatch)
        line("parley_store_failed_batches_total", "counter", "Batches whose BEGIN or COMMIT failed.", writer.failedBatches)
        line("parley_store_queued_operations", "gauge", "Write operations waiting for the writer.", writer.queued)
        line("parley_store_log_syncs_total", "counter", "fsyncs of the SQLite log.", statistics.logSyncs)
        line("parley_store_synced_batches_total", "counter", "Committed batches those fsyncs made durable.", statistics.syncedBatches)
        line("parley_store_log_sync_failures_total", "counter", "fsyncs of the SQLite log that failed.", statistics.logSyncFailures)
        line("parley_store_checkpoints_total", "counter", "Background checkpoint passes completed.", statistics.backgroundCheckpoints)
        line("parley_store_checkpoint_catch_ups_total", "counter", "Times the writer copied the last log frames itself.", statistics.checkpointCatchUps)
        line("parley_store_log_restarts_total", "counter", "Times the SQLite log started over.", statistics.logRestarts)
        line("parley_store_limit_checkpoints_total", "counter", "Checkpoints the writer ran because the log reached its limit.", statistics.limitCheckpoints)
        line("parley_store_checkpoint_failures_total", "counter", "Background checkpoint passes that failed or found the lock taken.", statistics.checkpointFailures)
        return out
    }
}
