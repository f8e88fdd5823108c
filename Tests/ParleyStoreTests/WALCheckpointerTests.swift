import Testing

@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

/// The background WAL checkpoint: the writer's commits never copy the log themselves unless
/// it reaches its limit, and what was committed reaches the database file.
@Suite struct WALCheckpointerTests {
    private static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    /// Commits `count` transactions of one 2 KiB row each (every one adds frames to the log),
    /// each waiting for a hold of its COMMIT and followed by the connection's after-commit work,
    /// as the group-commit writer does.
    private static func commitRows(_ writer: SQLiteConnection, count: Int, from start: Int = 0) throws {
        for index in start..<start + count {
            try writer.run("BEGIN IMMEDIATE")
            _ = try writer.execute(
                "INSERT INTO t (id, body) VALUES ($1, $2)",
                [.int(index), .text(String(repeating: "x", count: 2_048))])
            while writer.holdsNextCommit { usleep(500) }
            try writer.releaseCommitHold()
            try writer.run("COMMIT")
            writer.afterCommit(waitUntilDurable: {})
        }
    }

    private static func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func committedPagesReachTheDatabaseFileWithoutTheWriterCheckpointing() async throws {
        let scratch = try ScratchDatabase("checkpoint")
        defer { scratch.remove() }
        let path = scratch.path
        let checkpointer = WALCheckpointer.start(path: path, threshold: 8, limit: 1_000_000)
        var writer: SQLiteConnection? = try SQLiteConnection(path: path, role: .writer(checkpointer: checkpointer, syncedElsewhere: false))
        try writer!.run("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        let sizeBefore = Self.fileSize(path)

        try Self.commitRows(writer!, count: 200)
        try await Self.waitFor { checkpointer.currentStatistics.background > 0 && Self.fileSize(path) > 200 * 2_048 }

        let statistics = checkpointer.currentStatistics
        #expect(statistics.background > 0)
        #expect(statistics.byWriter == 0)
        #expect(statistics.failures == 0)
        #expect(statistics.lastCopiedFrames > 0)
        // Only a checkpoint writes the database file in WAL mode: 200 rows of 2 KiB arrived there.
        #expect(Self.fileSize(path) > sizeBefore + 200 * 2_048)

        writer = nil
        let reader = try SQLiteConnection(path: path, role: .reader)
        var rows = 0
        try reader.query("SELECT count(*) FROM t", []) { rows = $0.int(0) }
        #expect(rows == 200)
    }

    @Test func theWriterCheckpointsItselfWhenTheLogReachesItsLimit() async throws {
        let scratch = try ScratchDatabase("checkpoint")
        defer { scratch.remove() }
        let path = scratch.path
        // A background threshold the test never reaches on its own, so only the limit can act.
        let checkpointer = WALCheckpointer.start(path: path, threshold: 40, limit: 40)
        let writer = try SQLiteConnection(path: path, role: .writer(checkpointer: checkpointer, syncedElsewhere: false))
        try writer.run("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")

        try Self.commitRows(writer, count: 100)

        #expect(checkpointer.currentStatistics.byWriter > 0)
        // The log started over after the writer's checkpoints: it holds far fewer frames than
        // 100 commits wrote (each commit adds at least one 4 KiB page and its header).
        #expect(Self.fileSize(path + "-wal") < 100 * 4_096)
    }

    @Test func theLogStartsOverUnderAStreamOfCommits() async throws {
        let scratch = try ScratchDatabase("checkpoint")
        defer { scratch.remove() }
        let path = scratch.path
        let limit = 20_000
        let checkpointer = WALCheckpointer.start(path: path, threshold: 64, limit: limit)
        // No fsync in COMMIT (as with the syncer): commits follow each other with no pause in
        // which a background pass could find the whole log copied and let SQLite start it over.
        let writer = try SQLiteConnection(path: path, role: .writer(checkpointer: checkpointer, syncedElsewhere: true))
        try writer.run("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")

        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        var committed = 0
        while clock.now < deadline {
            let statistics = checkpointer.currentStatistics
            if statistics.restarts >= 3 || statistics.byWriter > 0 { break }
            try Self.commitRows(writer, count: 1, from: committed)
            committed += 1
        }

        let statistics = checkpointer.currentStatistics
        #expect(statistics.restarts >= 3, "the log never started over in \(committed) commits")
        #expect(statistics.catchUps >= 3)
        #expect(statistics.byWriter == 0, "the log grew to its limit of \(limit) frames")
        #expect(statistics.failures == 0)
        // The file never held a log as long as the limit. (How far past the threshold the log grew
        // before a restart depends on how soon the checkpointer's thread got a core: a loaded
        // machine running the whole suite saw 7,000 frames.)
        #expect(Self.fileSize(path + "-wal") < (4_096 + 24) * limit)
        var rows = 0
        try writer.query("SELECT count(*) FROM t", []) { rows = $0.int(0) }
        #expect(rows == committed)
    }

    @Test func theStoreReportsItsWritesSyncsAndCheckpoints() async throws {
        let scratch = try ScratchDatabase("checkpoint")
        defer { scratch.remove() }
        let path = scratch.path
        let database = try await StoreDatabase.open(StoreConfiguration(location: .sqlite(path: path)))
        let before = database.statistics
        _ = try await database.write { context in
            try context.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        }
        for index in 0..<20 {
            _ = try await database.write { context in
                try context.execute("INSERT INTO t (id, body) VALUES ($1, $2)", [.int(index), .text("row")])
            }
        }
        let after = database.statistics
        #expect(after.writer.operations - before.writer.operations == 21)
        #expect(after.writer.transactions > before.writer.transactions)
        // Every acknowledged write went through an fsync of the log.
        #expect(after.logSyncs > before.logSyncs)
        #expect(after.syncedBatches >= after.logSyncs)
        #expect(after.logSyncFailures == 0)
        #expect(after.checkpointFailures == 0)
        await database.close()
    }

    @Test func closingWithACheckpointPendingStopsTheThread() async throws {
        let scratch = try ScratchDatabase("checkpoint")
        defer { scratch.remove() }
        let path = scratch.path
        let database = try await StoreDatabase.open(StoreConfiguration(location: .sqlite(path: path)))
        _ = try await database.write { context in
            try context.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        }
        for index in 0..<50 {
            _ = try await database.write { context in
                try context.execute(
                    "INSERT INTO t (id, body) VALUES ($1, $2)",
                    [.int(index), .text(String(repeating: "y", count: 4_096))])
            }
        }
        await database.close()
        let reopened = try await StoreDatabase.open(StoreConfiguration(location: .sqlite(path: path)))
        let count = try await reopened.read { context in
            try context.queryFirst("SELECT count(*) FROM t") { $0.int(0) }
        }
        #expect(count == 50)
        await reopened.close()
    }
}
