import ParleyChannels
import ParleyStore

/// The store's counters in Prometheus text format (appended to `/metrics` when a store is open).
///
/// Only what the engine in use has: the SQLite log's fsyncs and checkpoints are left out on
/// PostgreSQL (where they would read 0 forever), and the PostgreSQL writer's pipelining and
/// round trips on SQLite. `parley_store_info{engine}` says which.
enum StoreMetrics {
    /// The exposition of `statistics`.
    static func render(_ statistics: StoreStatistics) -> String {
        var out = PrometheusText()
        out.family("parley_store_info", "gauge", "Always 1; engine names the database in use (sqlite or postgres).")
        out.sample("parley_store_info", [("engine", statistics.engine.rawValue)], 1)
        renderWriter(statistics.writer, into: &out)
        renderReaders(statistics, into: &out)
        switch statistics.engine {
        case .sqlite: renderSQLiteLog(statistics, into: &out)
        case .postgres:
            renderPipeline(statistics.writer, into: &out)
            renderWriterQueues(statistics.writerQueues, into: &out)
        }
        return out.text
    }

    private static func renderWriter(_ writer: WriterStatistics, into out: inout PrometheusText) {
        out.add("parley_store_transactions_total", "counter", "Transactions the group-commit writer committed.", writer.transactions)
        out.add("parley_store_operations_total", "counter", "Write operations those transactions carried.", writer.operations)
        out.add("parley_store_largest_batch", "gauge", "Most operations one transaction carried.", writer.largestBatch)
        out.add("parley_store_failed_batches_total", "counter", "Batches whose BEGIN or COMMIT failed.", writer.failedBatches)
        out.add("parley_store_queued_operations", "gauge", "Write operations waiting for the writer.", writer.queued)
    }

    private static func renderReaders(_ statistics: StoreStatistics, into out: inout PrometheusText) {
        let readers = statistics.readers
        out.family("parley_store_connections", "gauge", "Database connections open, by role (the writers, the reader pool).")
        out.sample("parley_store_connections", [("role", "writer")], max(1, statistics.writerQueues.count))
        out.sample("parley_store_connections", [("role", "reader")], readers.connections)
        out.add("parley_store_reads_in_progress", "gauge", "Reader connections running a read now.", readers.busy)
        out.add("parley_store_queued_reads", "gauge", "Reads waiting for a free reader connection.", readers.queued)
        out.add(
            "parley_store_read_failures_total", "counter", "Reads that failed in the database (not answers such as not found).",
            readers.failures)
        out.add("parley_store_reader_reconnects_total", "counter", "Times a reader connection was reopened.", readers.reconnects)
    }

    private static func renderSQLiteLog(_ statistics: StoreStatistics, into out: inout PrometheusText) {
        out.add("parley_store_log_syncs_total", "counter", "fsyncs of the SQLite log.", statistics.logSyncs)
        out.add("parley_store_synced_batches_total", "counter", "Committed batches those fsyncs made durable.", statistics.syncedBatches)
        out.add("parley_store_log_sync_failures_total", "counter", "fsyncs of the SQLite log that failed.", statistics.logSyncFailures)
        let durations = statistics.logSyncDurations
        out.addHistogram(
            "parley_store_log_sync_seconds", "How long fsyncs of the SQLite log took.",
            bounds: DurationHistogram.boundsMicroseconds.map(seconds), cumulativeCounts: durations.cumulativeCounts,
            sum: seconds(durations.sumMicroseconds), count: durations.count)
        out.add(
            "parley_store_restart_file_syncs_total", "counter",
            "fsyncs of the SQLite database file before the log started over (on the checkpoint thread).", statistics.restartFileSyncs)
        out.add("parley_store_checkpoints_total", "counter", "Background checkpoint passes completed.", statistics.backgroundCheckpoints)
        out.add(
            "parley_store_checkpoint_catch_ups_total", "counter", "Times the writer copied the last log frames itself.",
            statistics.checkpointCatchUps)
        out.add("parley_store_log_restarts_total", "counter", "Times the SQLite log started over.", statistics.logRestarts)
        out.add(
            "parley_store_limit_checkpoints_total", "counter", "Checkpoints the writer ran because the log reached its limit.",
            statistics.limitCheckpoints)
        out.add(
            "parley_store_checkpoint_failures_total", "counter", "Background checkpoint passes that failed or found the lock taken.",
            statistics.checkpointFailures)
        renderSearchMerge(statistics.writer, into: &out)
    }

    private static func renderSearchMerge(_ writer: WriterStatistics, into out: inout PrometheusText) {
        out.add(
            "parley_store_search_merge_steps_total", "counter",
            "Steps merging the search index's segments, run while the writer had nothing queued.", writer.idleSteps)
        out.family("parley_store_search_merge_seconds_total", "counter", "Time those steps took.")
        out.sample("parley_store_search_merge_seconds_total", [], seconds(writer.idleStepNanoseconds / 1_000))
        out.family(
            "parley_store_search_merge_longest_step_seconds", "gauge",
            "The longest of those steps: about the longest a write arriving meanwhile waited for the writer.")
        out.sample("parley_store_search_merge_longest_step_seconds", [], seconds(writer.longestIdleStepNanoseconds / 1_000))
    }

    private static func renderPipeline(_ writer: WriterStatistics, into out: inout PrometheusText) {
        out.add("parley_store_round_trips_total", "counter", "Round trips the writer made to PostgreSQL.", writer.roundTrips)
        out.add(
            "parley_store_pipelined_operations_total", "counter", "Single-statement writes sent in a pipeline with others.",
            writer.pipelinedOperations)
        out.add(
            "parley_store_coalesced_operations_total", "counter", "Of those, writes sent as part of one statement for several.",
            writer.coalescedOperations)
        out.add(
            "parley_store_pipeline_retries_total", "counter", "Pipelines redone one statement at a time after an error.",
            writer.pipelineRetries)
        out.add(
            "parley_store_contention_retries_total", "counter",
            "Transactions PostgreSQL rolled back for a deadlock or serialization failure, then run again.", writer.contentionRetries)
    }

    /// Each writer's queue on its own: one hot partition shows here while the sum looks calm.
    private static func renderWriterQueues(_ queues: [Int], into out: inout PrometheusText) {
        out.family(
            "parley_store_writer_queued_operations", "gauge",
            "Write operations waiting, by writer of the PostgreSQL pool (0 is the general writer).")
        for (index, depth) in queues.enumerated() {
            out.sample("parley_store_writer_queued_operations", [("writer", String(index))], depth)
        }
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
