import Glibc
import ParleyStore

/// The raw ceiling: the message rows of the load, written by a minimal program straight into
/// the same schema (the server's own migrations) in large durable transactions.
struct RawRun {
    /// What one statement size measured.
    struct Outcome {
        var statementRows: Int
        var rows: Int
        var transactions: Int
        var seconds: Double
        var commitSeconds: Double

        var rowsPerSecond: Double { seconds > 0 ? Double(rows) / seconds : 0 }
    }

    let options: RawOptions

    func run() async throws -> [Outcome] {
        let location: StoreLocation = options.isPostgres ? .postgres(url: options.database) : .sqlite(path: options.database)
        let migrated = try await StoreDatabase.open(StoreConfiguration(location: location, readerCount: 1))
        await migrated.close()
        let writer: any RawWriter =
            options.isPostgres
            ? try RawPostgresWriter(url: options.database)
            : try RawSQLiteWriter(path: options.database)
        let app = "raw-" + String(getpid(), radix: 36) + "-" + String(BenchClock.now() % 1_000_000_007, radix: 36)
        let roomIDs = (0..<options.rooms).map(BenchNames.room)
        try writer.createRooms(app: app, roomIDs, now: Self.unixMilliseconds())
        var source = RowSource(app: app, options: options)
        var outcomes: [Outcome] = []
        for statementRows in options.statementRows {
            _ = try transactions(writer, &source, rows: options.transactionRows, statementRows: statementRows)
            outcomes.append(try transactions(writer, &source, rows: options.rows, statementRows: statementRows))
        }
        return outcomes
    }

    /// Writes `rows` rows in transactions of `transactionRows`, statements of `statementRows`.
    private func transactions(
        _ writer: any RawWriter, _ source: inout RowSource, rows: Int,
        statementRows: Int
    ) throws(BenchError) -> Outcome {
        var outcome = Outcome(statementRows: statementRows, rows: 0, transactions: 0, seconds: 0, commitSeconds: 0)
        let start = BenchClock.now()
        while outcome.rows < rows {
            let count = min(options.transactionRows, rows - outcome.rows)
            let now = Self.unixMilliseconds()
            let batch = source.next(count, now: now)
            try writer.begin()
            var offset = 0
            while offset < batch.count {
                let end = min(batch.count, offset + statementRows)
                try writer.insert(batch[offset..<end])
                offset = end
            }
            for (room, seq) in source.touchedRooms() {
                try writer.updateRoom(app: source.app, BenchNames.room(room), lastSeq: seq, now: now)
            }
            let commitStart = BenchClock.now()
            try writer.commit()
            outcome.commitSeconds += Double(BenchClock.now() - commitStart) / 1e9
            outcome.rows += count
            outcome.transactions += 1
        }
        outcome.seconds = Double(BenchClock.now() - start) / 1e9
        return outcome
    }

    static func unixMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }
}
