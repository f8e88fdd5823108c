import ParleyChannels
import ParleyStore

/// The store's counters in Prometheus text format (appended to `/metrics` when a store is open).
enum StoreMetrics {
    /// The exposition of `statistics`: group commit, log fsyncs, checkpoints.
    static func render(_ statistics: StoreStatistics) -> String {
        var out = PrometheusText()
        let writer = statistics.writer
        out.add("parley_store_transactions_total", "counter", "Transactions the group-commit writer committed.", writer.transactions)
        out.add("parley_store_operations_total", "counter", "Write operations those transactions carried.", writer.operations)
        out.add("parley_store_largest_batch", "gauge", "Most operations one transaction carried.", writer.largestBatch)
        out.add("parley_store_failed_batches_total", "counter", "Batches whose BEGIN or COMMIT failed.", writer.failedBatches)
        out.add("parley_store_queued_operations", "gauge", "Write operations waiting for the writer.", writer.queued)
        out.add("parley_store_log_syncs_total", "counter", "fsyncs of the SQLite log.", statistics.logSyncs)
        out.add("parley_store_synced_batches_total", "counter", "Committed batches those fsyncs made durable.", statistics.syncedBatches)
        out.add("parley_store_log_sync_failures_total", "counter", "fsyncs of the SQLite log that failed.", statistics.logSyncFailures)
        let durations = statistics.logSyncDurations
        out.addHistogram("parley_store_log_sync_seconds", "How long fsyncs of the SQLite log took.",
                         bounds: DurationHistogram.boundsMicroseconds.map(seconds), cumulativeCounts: durations.cumulativeCounts,
                         sum: seconds(durations.sumMicroseconds), count: durations.count)
        out.add("parley_store_restart_file_syncs_total", "counter",
                "fsyncs of the SQLite database file before the log started over (on the checkpoint thread).", statistics.restartFileSyncs)
        out.add("parley_store_checkpoints_total", "counter", "Background checkpoint passes completed.", statistics.backgroundCheckpoints)
        out.add("parley_store_checkpoint_catch_ups_total", "counter", "Times the writer copied the last log frames itself.", statistics.checkpointCatchUps)
        out.add("parley_store_log_restarts_total", "counter", "Times the SQLite log started over.", statistics.logRestarts)
        out.add("parley_store_limit_checkpoints_total", "counter", "Checkpoints the writer ran because the log reached its limit.", statistics.limitCheckpoints)
        out.add("parley_store_checkpoint_failures_total", "counter", "Background checkpoint passes that failed or found the lock taken.", statistics.checkpointFailures)
        return out.text
    }

    /// Microseconds as decimal seconds (`2500` → `0.0025`), without Foundation formatting.
    static func seconds(_ microseconds: Int) -> String {
        let whole = microseconds / 1_000_000
        var fraction = String(microseconds % 1_000_000)
        while fraction.count < 6 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }
}
