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
        let text = StoreMetrics.render(statistics)
        #expect(text.contains("# TYPE parley_store_transactions_total counter\nparley_store_transactions_total 7\n"))
        #expect(text.contains("parley_store_operations_total 120\n"))
        #expect(text.contains("# TYPE parley_store_queued_operations gauge\nparley_store_queued_operations 3\n"))
        #expect(text.contains("parley_store_log_syncs_total 6\n"))
        #expect(text.contains("parley_store_synced_batches_total 7\n"))
        #expect(text.contains("parley_store_checkpoint_catch_ups_total 2\n"))
        #expect(text.contains("parley_store_log_restarts_total 2\n"))
        #expect(text.contains("parley_store_limit_checkpoints_total 1\n"))
        // Every sample line is preceded by its HELP and TYPE lines (Prometheus text format).
        let lines = text.split(separator: "\n")
        for (index, line) in lines.enumerated() where !line.hasPrefix("#") {
            let name = line.split(separator: " ")[0]
            #expect(index >= 2 && lines[index - 1].hasPrefix("# TYPE \(name) ") && lines[index - 2].hasPrefix("# HELP \(name) "))
        }
    }
}
