import Testing

@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

/// The SQLite writer's pipelined durability: COMMIT without fsync, callers answered only after
/// the syncer's fsync of the log, reads held until what they may have seen is durable.
@Suite struct WALSyncerTests {
    /// A writer on a fresh SQLite file whose log "fsync" is `sync`.
    private static func startWriter(
        syncer: WALSyncer
    ) async throws -> (writer: GroupCommitWriter, scratch: ScratchDatabase) {
        let scratch = try ScratchDatabase("sync")
        let path = scratch.path
        let writer = try await GroupCommitWriter.start(
            name: "test-writer", maxBatchSize: 64, clock: .system, syncer: syncer,
            open: { try SQLiteConnection(path: path, role: .writer(checkpointer: nil, syncedElsewhere: true)) },
            prepare: { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)") })
        return (writer, scratch)
    }

    @Test func aWriteIsAnsweredOnlyAfterTheLogIsSynced() async throws {
        let gate = Gate()
        let syncer = WALSyncer.start(sync: { gate.pass() })
        let (writer, scratch) = try await Self.startWriter(syncer: syncer)
        defer { scratch.remove() }
        let answered = LockedCounter()

        let write = Task {
            let id = try await writer.submit { context in
                try context.execute("INSERT INTO t (v) VALUES ('x')")
                return 1
            }
            answered.increment()
            return id
        }
        // The batch committed and its fsync is in progress (held by the gate): no answer yet.
        try await eventually { gate.hasEntered }
        try await Task.sleep(for: .milliseconds(50))
        #expect(answered.value == 0)

        gate.open()
        #expect(try await write.value == 1)
        #expect(syncer.currentStatistics.syncs >= 1)
        await writer.close()
    }

    @Test func writesArrivingDuringAnFsyncRunAtOnceAndShareTheNextCommit() async throws {
        let gate = Gate()
        let syncs = LockedCounter()
        let syncer = WALSyncer.start(sync: {
            if syncs.increment() == 1 { gate.pass() }
        })
        let (writer, scratch) = try await Self.startWriter(syncer: syncer)
        defer { scratch.remove() }

        let first = Task { try await writer.submit { try $0.execute("INSERT INTO t (v) VALUES ('first')") } }
        try await eventually { gate.hasEntered }
        // While the first fsync hangs, later writes still run on the writer (in an open
        // transaction) rather than queueing behind it...
        let performed = LockedCounter()
        var later: [Task<Int, any Error>] = []
        for index in 0..<5 {
            later.append(
                Task {
                    try await writer.submit { context in
                        performed.increment()
                        return try context.execute("INSERT INTO t (v) VALUES ('\(index)')")
                    }
                })
        }
        try await eventually { performed.value == 5 }
        #expect(writer.currentStatistics.transactions == 1)
        #expect(syncs.value == 1)

        gate.open()
        _ = try await first.value
        for task in later { #expect(try await task.value == 1) }
        // ...and commit together once the fsync is done: one more transaction, one more fsync.
        #expect(writer.currentStatistics.transactions == 2)
        #expect(writer.currentStatistics.largestBatch == 5)
        #expect(syncer.currentStatistics.syncs == 2)
        await writer.close()
    }

    @Test func aLoneWriteWithTheSyncerIdleCommitsAtOnce() async throws {
        let syncer = WALSyncer.start(sync: {})
        let (writer, scratch) = try await Self.startWriter(syncer: syncer)
        defer { scratch.remove() }
        for index in 0..<3 {
            _ = try await writer.submit { try $0.execute("INSERT INTO t (v) VALUES ('\(index)')") }
        }
        #expect(writer.currentStatistics.transactions == 3)
        #expect(syncer.currentStatistics.syncs == 3)
        await writer.close()
    }

    @Test func aFailedFsyncFailsTheWrite() async throws {
        let syncer = WALSyncer.start(sync: { () throws(StoreError) in throw StoreError(.io, "disk on fire") })
        let (writer, scratch) = try await Self.startWriter(syncer: syncer)
        defer { scratch.remove() }
        await #expect(throws: StoreError.self) {
            try await writer.submit { try $0.execute("INSERT INTO t (v) VALUES ('x')") }
        }
        #expect(syncer.currentStatistics.failures == 1)
        // The log can no longer be trusted: later writes fail too, without running or syncing.
        let ran = LockedCounter()
        for _ in 0..<3 {
            await #expect(throws: StoreError.self) {
                try await writer.submit { context in
                    ran.increment()
                    return try context.execute("INSERT INTO t (v) VALUES ('y')")
                }
            }
        }
        #expect(ran.value == 0)
        #expect(syncer.failure?.code == .io)
        #expect(syncer.currentStatistics.syncs == 1)
        await writer.close()
    }

    @Test func aReadWaitsForTheCommitsBegunBeforeItEnded() async throws {
        let gate = Gate()
        let syncer = WALSyncer.start(sync: { gate.pass() })
        defer { gate.open(); syncer.close() }
        let released = LockedCounter()

        let commit = syncer.beginCommit()
        let reader = Task {
            await syncer.waitUntilDurable()
            released.increment()
        }
        syncer.committed(commit, jobs: [], failure: nil)
        try await eventually { gate.hasEntered }
        try await Task.sleep(for: .milliseconds(50))
        #expect(released.value == 0)

        gate.open()
        await reader.value
        #expect(released.value == 1)
        // With nothing pending, a read does not wait at all.
        await syncer.waitUntilDurable()
    }

    @Test func theRealLogIsSyncedAndItsReplacementFound() async throws {
        let scratch = try ScratchDatabase("walfile")
        defer { scratch.remove() }
        let file = WALFile(databasePath: scratch.path)
        #expect(throws: StoreError.self) { try file.sync() }  // no log yet: an error, not a silent no-op

        let handle = open(file.path, O_CREAT | O_WRONLY, 0o600)
        close(handle)
        try file.sync()
        try file.sync()
        #expect(file.opens == 1)
        unlink(file.path)
        let replacement = open(file.path, O_CREAT | O_WRONLY, 0o600)
        close(replacement)
        try file.sync()
        #expect(file.opens == 2)  // the new file, not the deleted one
        unlink(file.path)
        #expect(throws: StoreError.self) { try file.sync() }
    }
}

/// A counter several threads bump.
private final class LockedCounter: Sendable {
    private let lock = ConditionLock()
    private nonisolated(unsafe) var count = 0  // guarded by lock

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        lock.withLock {
            count += 1; return count
        }
    }

    var value: Int { lock.withLock { count } }
}
