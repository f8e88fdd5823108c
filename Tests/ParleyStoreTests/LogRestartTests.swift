import CSQLite
import Testing

@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

/// The SQLite log starting over under a stream of writes, through the group-commit writer, the
/// syncer and the checkpointer: the writer's thread makes no fsync for it beyond the new log's
/// header inside COMMIT, its next COMMIT waits for the database file's fsync while its operations
/// run, and a failed fsync of the file stops every commit.
@Suite struct LogRestartTests {
    /// A writer with a syncer (real `fdatasync` of the log) and a checkpointer whose background
    /// passes start at 64 frames, so the log starts over every few dozen writes.
    private struct Rig {
        let scratch: ScratchDatabase
        let trace = StoreTrace.inMemory()
        let checkpointer: WALCheckpointer
        let syncer: WALSyncer
        let writer: GroupCommitWriter

        /// `syncFile`: how the checkpointer fsyncs the database file before a restart (nil: for real).
        init(syncFile: (@Sendable (SQLiteConnection) -> Int32)? = nil) async throws {
            scratch = try ScratchDatabase("restart")
            let path = scratch.path
            if let syncFile {
                checkpointer = WALCheckpointer.start(path: path, threshold: 64, limit: 1_000_000, trace: trace, syncFile: syncFile)
            } else {
                checkpointer = WALCheckpointer.start(path: path, threshold: 64, limit: 1_000_000, trace: trace)
            }
            syncer = WALSyncer.start(databasePath: path, trace: trace)
            let checkpointer = self.checkpointer
            writer = try await GroupCommitWriter.start(
                name: "test-writer", maxBatchSize: 16, clock: .system, syncer: syncer, trace: trace,
                open: { try SQLiteConnection(path: path, role: .writer(checkpointer: checkpointer, syncedElsewhere: true)) },
                prepare: { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") })
        }

        /// Inserts one 2 KiB row (each commit adds frames to the log); returns its id.
        func insert() async throws -> Int64 {
            try await writer.submit { context in
                _ = try context.execute("INSERT INTO t (body) VALUES ($1)", [.text(String(repeating: "x", count: 2_048))])
                return context.lastInsertRowID ?? 0
            }
        }

        /// Four concurrent streams of inserts until `done` holds (or a write fails); returns
        /// how many were acknowledged.
        func stream(until done: @escaping @Sendable () -> Bool) async -> Int {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var acknowledged = 0
                        for _ in 0..<20_000 where !done() {
                            guard (try? await insert()) != nil else { break }
                            acknowledged += 1
                        }
                        return acknowledged
                    }
                }
                return await group.reduce(0, +)
            }
        }

        func close() async {
            await writer.close()
            scratch.remove()
        }
    }

    @Test func aLogRestartCostsTheWriterNoFsyncButTheNewLogsHeader() async throws {
        let rig = try await Rig()
        let checkpointer = rig.checkpointer
        let acknowledged = await rig.stream { checkpointer.currentStatistics.restarts >= 3 }
        // Read on the writer's thread: every fsync SQLite asked for there since it opened.
        let writerSyncs = try await rig.writer.submit { _ in SQLiteLogBuffer.syncsOnThisThread }
        let statistics = checkpointer.currentStatistics
        #expect(statistics.restarts >= 3, "the log never started over in \(acknowledged) writes")
        #expect(statistics.byWriter == 0)
        // The new log's first header (migrations) and one header per restart, inside COMMIT,
        // as SQLite requires; the copy before a restart syncs nothing on the writer's thread.
        #expect(writerSyncs == UInt64(1 + statistics.restarts))
        let headerCommits = rig.trace.events.filter { $0.kind == .committed && $0.b > 0 }
        #expect(headerCommits.count == statistics.restarts)
        #expect(headerCommits.allSatisfy { $0.b == 1 })
        await rig.close()
    }

    @Test func everyAnswerFollowsTheFsyncOfItsCommit() async throws {
        let rig = try await Rig()
        let checkpointer = rig.checkpointer
        _ = await rig.stream { checkpointer.currentStatistics.restarts >= 2 }
        var durable: Int64 = 0
        var answers = 0
        for event in rig.trace.events {
            switch event.kind {
            case .syncEnd where event.b == 1: durable = max(durable, event.a)
            case .answered:
                #expect(event.a <= durable, "commit \(event.a) answered before its fsync ended")
                answers += 1
            default: break
            }
        }
        #expect(answers > 0)
        await rig.close()
    }

    @Test func theCommitThatRestartsTheLogWaitsForTheFileFsyncWhileItsOperationsRun() async throws {
        let gate = Gate()
        let rig = try await Rig(syncFile: { connection in
            gate.pass()
            return connection.syncDatabaseFile()
        })
        let checkpointer = rig.checkpointer
        let background = Task { await rig.stream { gate.hasEntered && checkpointer.currentStatistics.fileSyncs >= 1 } }
        try await eventually { gate.hasEntered }
        let restarts = checkpointer.currentStatistics.restarts
        // The copy reached the log's end and the file's fsync is held: later writes still run...
        let transactions = rig.writer.currentStatistics.transactions
        let performed = Counter()
        let answered = Counter()
        let late = (0..<5).map { _ in
            Task {
                try await rig.writer.submit { context in
                    performed.increment()
                    return try context.execute("INSERT INTO t (body) VALUES ('late')")
                }
                answered.increment()
            }
        }
        try await eventually { performed.value == 5 }
        try await Task.sleep(for: .milliseconds(50))
        // ...but nothing commits, so the log cannot start over before the file is durable.
        #expect(rig.writer.currentStatistics.transactions == transactions)
        #expect(answered.value == 0)
        #expect(checkpointer.currentStatistics.restarts == restarts)

        gate.open()
        for task in late { try await task.value }
        _ = await background.value
        #expect(checkpointer.currentStatistics.restarts > restarts)
        #expect(checkpointer.currentStatistics.fileSyncs >= 1)
        await rig.close()
    }

    @Test func aFailedFileFsyncStopsEveryCommitAndTheLogNeverStartsOver() async throws {
        let rig = try await Rig(syncFile: { _ in SQLITE_IOERR })
        let checkpointer = rig.checkpointer
        // The streams end at their first failure: the commit that would have started the log over.
        let acknowledged = await rig.stream { false }
        let restarts = checkpointer.currentStatistics.restarts
        #expect(checkpointer.currentStatistics.catchUps >= 1)
        for _ in 0..<3 {
            await #expect(throws: StoreError.self) { _ = try await rig.insert() }
        }
        #expect(checkpointer.currentStatistics.restarts == restarts)
        await rig.writer.close()

        // What was acknowledged is there, and nothing else.
        let reader = try SQLiteConnection(path: rig.scratch.path, role: .reader)
        var rows = 0
        try reader.query("SELECT count(*) FROM t", []) { rows = $0.int(0) }
        #expect(rows == acknowledged)
        rig.scratch.remove()
    }
}

/// A counter several threads bump.
private final class Counter: Sendable {
    private let lock = ConditionLock()
    private nonisolated(unsafe) var count = 0  // guarded by lock

    func increment() { lock.withLock { count += 1 } }

    var value: Int { lock.withLock { count } }
}
