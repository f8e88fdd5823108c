import ParleyStore

/// The "writes, then idle" part of the search benchmark: more messages written the way sends
/// reach the index (transactions of a busy server's batch, the search queue moved into the
/// index every 1,024 messages), then seconds without writes in which the SQLite writer merges
/// the index; reports the index's segments along the way.
struct SearchBurst {
    let store: SQLChatStore
    let options: SearchOptions
    let vocabulary: SearchVocabulary

    /// Writes the burst; returns its messages per second.
    func write() async throws -> Double {
        let seqs = try await lastSeqs()
        var source = SearchMessageSource(continuing: seqs, options: options, vocabulary: vocabulary, now: RawRun.unixMilliseconds())
        let withDocument = !options.isPostgres
        let start = BenchClock.now()
        var pending: Task<Void, any Error>?
        while source.produced < options.burst {
            let rows = source.next(min(options.burstTransactionRows, options.burst - source.produced))
            let roomSeqs = source.roomSeqs
            try await pending?.value
            pending = Task { [store] in try await SearchSeeder.write(rows, roomSeqs: roomSeqs, withDocument: withDocument, store: store) }
        }
        try await pending?.value
        return Double(options.burst) / (Double(BenchClock.now() - start) / 1e9)
    }

    /// Leaves the store idle for up to `options.idleSeconds`, printing the index's segments
    /// every second; ends early once the writer has run no merge step for a second and the
    /// index is in at most two segments.
    func idle() async throws {
        var lastSteps = store.writerStatistics.idleSteps
        var quietTicks = 0
        for tick in 1...max(1, options.idleSeconds * 4) {
            try await Task.sleep(for: .milliseconds(250))
            let steps = store.writerStatistics.idleSteps
            quietTicks = steps == lastSteps ? quietTicks + 1 : 0
            lastSteps = steps
            let segments = try await store.searchIndexSegments() ?? 0
            if tick % 4 == 0 || quietTicks >= 4 {
                FileOutput.standardOutput(
                    "  idle \(LatencySummary.fixed(Double(tick) / 4, decimals: 2)) s: \(segments) segment(s), \(report())")
            }
            if quietTicks >= 4 && segments <= 2 { return }
        }
    }

    /// The writer's idle merge counters so far.
    func report() -> String {
        let writer = store.writerStatistics
        let averageMilliseconds = writer.idleSteps == 0 ? 0 : Double(writer.idleStepNanoseconds) / Double(writer.idleSteps) / 1e6
        return "\(writer.idleSteps) merge steps, \(LatencySummary.fixed(Double(writer.idleStepNanoseconds) / 1e9, decimals: 2)) s, "
            + "mean \(LatencySummary.fixed(averageMilliseconds, decimals: 2)) ms, "
            + "longest \(LatencySummary.fixed(Double(writer.longestIdleStepNanoseconds) / 1e6, decimals: 2)) ms"
    }

    /// Each room's last seq, by room index.
    private func lastSeqs() async throws -> [Int64] {
        let rows = try await store.database.read { context in
            try context.query("SELECT id, last_seq FROM rooms WHERE app_id = $1", [.text(SearchSeeder.app)]) { row in
                (row.text(0), row.int64(1))
            }
        }
        var seqs = [Int64](repeating: 0, count: options.rooms)
        for (room, seq) in rows {
            if let index = Int(room.dropFirst("search-r".count)), index < seqs.count { seqs[index] = seq }
        }
        return seqs
    }
}
