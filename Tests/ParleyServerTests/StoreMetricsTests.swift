import ParleyStore
import Testing

@testable import ParleyServer

/// The store's counters as `/metrics` shows them.
@Suite struct StoreMetricsTests {
    @Test func everyCounterAppearsWithItsTypeAndValue() {
        var statistics = StoreStatistics()
        statistics.writer.transactions = 7
        statistics.writer.operations = 120
        statistics.writer.queued = 3
        statistics.logSyncs = 6
        statistics.syncedBatches = 7
        statistics.checkpointCatchUps = 2
        statistics.logRestarts = 2
        statistics.limitCheckpoints = 1
        statistics.writer.idleSteps = 40
        statistics.writer.idleStepNanoseconds = 125_000_000
        statistics.writer.longestIdleStepNanoseconds = 4_500_000
        let text = StoreMetrics.render(statistics)
        #expect(text.contains("# TYPE parley_store_transactions_total counter\nparley_store_transactions_total 7\n"))
        #expect(text.contains("parley_store_operations_total 120\n"))
        #expect(text.contains("# TYPE parley_store_queued_operations gauge\nparley_store_queued_operations 3\n"))
        #expect(text.contains("parley_store_log_syncs_total 6\n"))
        #expect(text.contains("parley_store_synced_batches_total 7\n"))
        #expect(text.contains("parley_store_checkpoint_catch_ups_total 2\n"))
        #expect(text.contains("parley_store_log_restarts_total 2\n"))
        #expect(text.contains("parley_store_limit_checkpoints_total 1\n"))
        #expect(text.contains("parley_store_search_merge_steps_total 40\n"))
        #expect(text.contains("# TYPE parley_store_search_merge_seconds_total counter\nparley_store_search_merge_seconds_total 0.125\n"))
        #expect(text.contains("parley_store_search_merge_longest_step_seconds 0.0045\n"))
        #expect(text.contains("parley_store_info{engine=\"sqlite\"} 1\n"))
        #expect(!text.contains("parley_store_round_trips_total"))
        // Every sample is preceded by its HELP and TYPE lines (Prometheus text format); a
        // histogram's series (`_bucket`, `_sum`, `_count`) follow the lines of its base name.
        let lines = text.split(separator: "\n")
        var described: Set<Substring> = []
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("# TYPE ") {
                let name = line.split(separator: " ")[2]
                #expect(index >= 1 && lines[index - 1].hasPrefix("# HELP \(name) "))
                described.insert(name)
                continue
            }
            if line.hasPrefix("#") { continue }
            let series = line.split(separator: " ")[0].split(separator: "{")[0]
            var base = series
            for suffix in ["_bucket", "_sum", "_count"] where series.hasSuffix(suffix) && !described.contains(series) {
                base = series.dropLast(suffix.count)
            }
            #expect(described.contains(base), "\(series) has no HELP and TYPE lines")
        }
    }

    @Test func postgresShowsItsPoolAndPipelineButNoSQLiteLog() {
        var statistics = StoreStatistics()
        statistics.engine = .postgres
        statistics.readers = ReaderStatistics(connections: 4, busy: 1, queued: 2, failures: 3, reconnects: 1)
        statistics.writer.roundTrips = 9
        let text = StoreMetrics.render(statistics)
        #expect(text.contains("parley_store_info{engine=\"postgres\"} 1\n"))
        #expect(text.contains("parley_store_connections{role=\"reader\"} 4\n"))
        #expect(text.contains("parley_store_reads_in_progress 1\n"))
        #expect(text.contains("parley_store_queued_reads 2\n"))
        #expect(text.contains("parley_store_read_failures_total 3\n"))
        #expect(text.contains("parley_store_round_trips_total 9\n"))
        for sqliteOnly in [
            "parley_store_log_syncs_total", "parley_store_checkpoints_total", "parley_store_log_restarts_total",
            "parley_store_synced_batches_total", "parley_store_checkpoint_failures_total", "parley_store_search_merge_steps_total"
        ] {
            #expect(!text.contains(sqliteOnly))
        }
    }

    @Test func logFsyncDurationsAreAHistogramInSeconds() {
        var statistics = StoreStatistics()
        statistics.logSyncDurations.record(nanoseconds: 80_000)  // 0.08 ms
        statistics.logSyncDurations.record(nanoseconds: 9_000_000)  // 9 ms
        statistics.logSyncDurations.record(nanoseconds: 12_000_000)  // 12 ms
        statistics.logSyncDurations.record(nanoseconds: 3_000_000_000)  // 3 s: above every bound
        let text = StoreMetrics.render(statistics)
        #expect(text.contains("# TYPE parley_store_log_sync_seconds histogram\n"))
        #expect(text.contains("parley_store_log_sync_seconds_bucket{le=\"0.0001\"} 1\n"))
        #expect(text.contains("parley_store_log_sync_seconds_bucket{le=\"0.005\"} 1\n"))
        #expect(text.contains("parley_store_log_sync_seconds_bucket{le=\"0.01\"} 2\n"))
        #expect(text.contains("parley_store_log_sync_seconds_bucket{le=\"0.025\"} 3\n"))
        #expect(text.contains("parley_store_log_sync_seconds_bucket{le=\"1\"} 3\n"))
        #expect(text.contains("parley_store_log_sync_seconds_bucket{le=\"+Inf\"} 4\n"))
        #expect(text.contains("parley_store_log_sync_seconds_sum 3.02108\n"))
        #expect(text.contains("parley_store_log_sync_seconds_count 4\n"))
    }
}
