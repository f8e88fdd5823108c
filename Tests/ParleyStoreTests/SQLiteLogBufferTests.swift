import Testing

@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

/// The log-buffering VFS: a transaction's log frames reach the file in a few writes, and always
/// before another connection can see the commit.
@Suite struct SQLiteLogBufferTests {

    private static func openWriter(_ path: String) throws -> SQLiteConnection {
        let writer = try SQLiteConnection(path: path, role: .writer(checkpointer: nil, syncedElsewhere: true))
        try writer.run("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        try writer.run("CREATE INDEX IF NOT EXISTS t_by_v ON t (v)")
        return writer
    }

    private static func insert(_ connection: SQLiteConnection, rows: Range<Int>) throws {
        for row in rows {
            // Random-looking keys spread the index over many pages, as client ids do.
            _ = try connection.execute(
                "INSERT INTO t (id, v) VALUES ($1, $2)",
                [.int(row), .text(String(row &* 2_654_435_761 % 1_000_003) + String(repeating: "x", count: 200))])
        }
    }

    private static func integrity(_ connection: SQLiteConnection) throws -> String {
        var result = ""
        try connection.query("PRAGMA integrity_check", []) { result = $0.text(0) }
        return result
    }

    private static func count(_ connection: SQLiteConnection) throws -> Int {
        var rows = 0
        try connection.query("SELECT count(*) FROM t", []) { rows = Int($0.int64(0)) }
        return rows
    }

    @Test func aTransactionsFramesReachTheLogInAFewWrites() throws {
        let scratch = try ScratchDatabase("logbuffer")
        defer { scratch.remove() }
        let path = scratch.path
        let writer = try Self.openWriter(path)
        let before = SQLiteLogBuffer.writeCounts(logPath: writer.logPath)

        try writer.run("BEGIN")
        try Self.insert(writer, rows: 0..<2_000)
        try writer.run("COMMIT")

        let after = SQLiteLogBuffer.writeCounts(logPath: writer.logPath)
        let logical = after.logical - before.logical, physical = after.physical - before.physical
        // Two writes per frame as SQLite issues them; a handful of large ones as they reach the file.
        #expect(logical >= 200)
        #expect(physical >= 1)
        #expect(physical * 20 <= logical, "logical \(logical), physical \(physical)")
    }

    @Test func anotherConnectionSeesEveryCommitAsSoonAsItReturns() throws {
        let scratch = try ScratchDatabase("logbuffer")
        defer { scratch.remove() }
        let path = scratch.path
        let writer = try Self.openWriter(path)
        let reader = try SQLiteConnection(path: path, role: .reader)

        for round in 0..<50 {
            try writer.run("BEGIN")
            try Self.insert(writer, rows: round * 40..<(round + 1) * 40)
            try writer.run("COMMIT")
            // The reader reads the new frames from the file; had they still been in the writer's
            // memory it would read short or stale pages.
            #expect(try Self.count(reader) == (round + 1) * 40)
        }
        #expect(try Self.integrity(reader) == "ok")
    }

    @Test func aTransactionThatSpillsAndRollsBackLeavesTheLogConsistent() throws {
        let scratch = try ScratchDatabase("logbuffer")
        defer { scratch.remove() }
        let path = scratch.path
        let writer = try Self.openWriter(path)
        // A tiny page cache makes SQLite write uncommitted frames to the log mid-transaction.
        try writer.run("PRAGMA cache_size = 10")
        try writer.run("BEGIN")
        try Self.insert(writer, rows: 0..<500)
        try writer.run("COMMIT")

        try writer.run("BEGIN")
        try Self.insert(writer, rows: 500..<3_000)
        try writer.run("ROLLBACK")
        try writer.run("BEGIN")
        try Self.insert(writer, rows: 3_000..<3_300)
        try writer.run("COMMIT")

        let reader = try SQLiteConnection(path: path, role: .reader)
        #expect(try Self.count(reader) == 800)
        #expect(try Self.integrity(reader) == "ok")
        // The same after the log is copied into the database file.
        _ = writer.checkpointPassively()
        let afterCheckpoint = try SQLiteConnection(path: path, role: .reader)
        #expect(try Self.count(afterCheckpoint) == 800)
    }

    @Test func aLogWhoseChecksumsWereRewrittenRecoversEveryCommit() throws {
        let scratch = try ScratchDatabase("logbuffer")
        defer { scratch.remove() }
        let path = scratch.path
        let writer = try Self.openWriter(path)
        // Pages spilled to the log and changed again are overwritten in place, and SQLite then
        // rewrites the checksums of every frame from the first overwritten one (read, write header).
        try writer.run("PRAGMA cache_size = 10")
        try writer.run("BEGIN")
        try Self.insert(writer, rows: 0..<1_000)
        _ = try writer.execute("UPDATE t SET v = v || 'y'", [])
        try writer.run("COMMIT")

        // What a crash would leave: the database and its log, without the shared-memory index,
        // so opening the copy rebuilds the index from the frames and their checksums.
        let copyScratch = try ScratchDatabase("logbuffer")
        defer { copyScratch.remove() }
        let copy = copyScratch.path
        for suffix in ["", "-wal"] { try Self.copyFile(path + suffix, to: copy + suffix) }
        let recovered = try SQLiteConnection(path: copy, role: .reader)
        #expect(try Self.count(recovered) == 1_000)
        var updated = 0
        try recovered.query("SELECT count(*) FROM t WHERE v LIKE '%y'", []) { updated = Int($0.int64(0)) }
        #expect(updated == 1_000)
    }

    private static func copyFile(_ source: String, to destination: String) throws {
        guard let input = fopen(source, "rb") else { throw StoreError(.io, "cannot open \(source)") }
        defer { fclose(input) }
        guard let output = fopen(destination, "wb") else { throw StoreError(.io, "cannot create \(destination)") }
        defer { fclose(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = fread(&buffer, 1, buffer.count, input)
            if read == 0 { break }
            guard fwrite(buffer, 1, read, output) == read else { throw StoreError(.io, "cannot write \(destination)") }
        }
    }
}
