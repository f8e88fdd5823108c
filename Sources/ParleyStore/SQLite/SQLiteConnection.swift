import CSQLite
import ParleySystem

/// An open SQLite database; owns its `sqlite3*` and a cache of prepared statements.
///
/// Opened with `SQLITE_OPEN_NOMUTEX`: the connection must stay on the thread that opened it;
/// debug builds check every statement against that thread (`owner`).
final class SQLiteConnection: SQLConnection {
    /// How long a statement waits for another process's lock before failing with `busy`.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    private let handle: OpaquePointer
    /// The opening thread, the only one allowed to run statements.
    let owner = OwningThread()
    private var statements: [String: SQLiteStatement] = [:]
    private var checkpointer: WALCheckpointer?
    /// The log's length after the previous commit (a shorter one means it started over).
    private var framesAtLastCommit = 0
    /// Where the writer stands in letting the log start over (see `LogRestartSteps`).
    private var restart = LogRestartSteps()
    /// The `synchronous` level commits run with (the catch-up copies with none).
    private var commitSynchronous = "FULL"

    let path: String

    var dialect: SQLDialect { .sqlite }
    var isHealthy: Bool { true }

    /// What a connection is opened for.
    enum Role {
        /// The single writer: WAL journaling, a large page cache, checkpoints left to
        /// `checkpointer` when there is one (SQLite's automatic checkpoint otherwise), and with
        /// `syncedElsewhere` COMMIT without fsync: a `WALSyncer` flushes the log before anyone is answered.
        case writer(checkpointer: WALCheckpointer?, syncedElsewhere: Bool)
        /// A reader: refuses writes (`query_only`).
        case reader
        /// The background checkpoint connection.
        case checkpointer
    }

    /// Opens (creating if needed) the database file at `path` and applies Parley's pragmas.
    ///
    /// WAL journaling with `synchronous=FULL` makes every COMMIT durable with one WAL fsync
    /// (and makes each checkpoint fsync the log before and the database file after copying);
    /// a writer whose log a `WALSyncer` flushes runs with `synchronous=NORMAL` instead.
    init(path: String, role: Role) throws(StoreError) {
        Self.configureLibrary
        var database: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &database, flags, SQLiteLogBuffer.vfsName)
        guard status == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let database { sqlite3_close_v2(database) }
            throw StoreError(.io, "cannot open SQLite database at \(path): \(message)")
        }
        self.handle = database
        self.path = path
        sqlite3_extended_result_codes(database, 1)
        sqlite3_busy_timeout(database, Self.busyTimeoutMilliseconds)
        try run("PRAGMA foreign_keys = ON")
        try run("PRAGMA synchronous = FULL")
        switch role {
        case .reader:
            try run("PRAGMA query_only = ON")
            try run("PRAGMA cache_size = -\(Self.readerCacheKiB)")
        case .writer(let checkpointer, let syncedElsewhere):
            try enableWriteAheadLog()
            if syncedElsewhere {
                try run("PRAGMA synchronous = NORMAL")
                commitSynchronous = "NORMAL"
            }
            // The writer touches every room's counter, every sender's cursor and the tails of the
            // message indexes; with SQLite's default 2 MiB cache it re-reads those pages from
            // the file on most commits.
            try run("PRAGMA cache_size = -\(Self.writerCacheKiB)")
            // A log that grew during a burst is cut back to this size once it starts over.
            try run("PRAGMA journal_size_limit = \(Self.logSizeLimitBytes)")
            if let checkpointer { handOverCheckpoints(to: checkpointer) }
        case .checkpointer:
            // Reading the schema opens the log, which a checkpoint on a fresh connection needs.
            _ = try execute("SELECT count(*) FROM sqlite_schema", [])
        }
    }

    /// Process-wide settings, applied before the first connection initializes SQLite (later calls
    /// are refused by SQLite and harmless: the library then keeps its defaults).
    private static let configureLibrary: Void = {
        _ = parley_sqlite3_disable_memory_statistics()
    }()

    /// The full path of this database's write-ahead log, as SQLite names it.
    var logPath: String {
        sqlite3_db_filename(handle, "main").map { String(cString: $0) + "-wal" } ?? path + "-wal"
    }

    /// Page cache of the single writer connection, in KiB.
    static let writerCacheKiB = 65_536
    /// Page cache of each reader connection, in KiB.
    static let readerCacheKiB = 16_384
    /// The size the log file is truncated to when it starts over after a full checkpoint: above
    /// its usual length at a restart (`WALCheckpointer.defaultThreshold` frames of 4 KiB pages
    /// and their headers, plus what arrives while the background checkpoint catches up), so a
    /// log that starts over rewrites blocks the file has instead of allocating them again.
    static let logSizeLimitBytes = 320 << 20

    deinit {
        checkpointer?.close()
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Replaces SQLite's automatic checkpoint (run inside the COMMIT that crosses 1,000 frames)
    /// with a WAL hook that hands the work to `checkpointer`.
    private func handOverCheckpoints(to checkpointer: WALCheckpointer) {
        self.checkpointer = checkpointer
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                guard let context else { return SQLITE_OK }
                Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue().logGrew(to: Int(frames))
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called inside each commit with the log's length in frames.
    ///
    /// SQLite starts the log over only when a write transaction begins while every frame is
    /// already in the database file. Under a steady stream of commits the background checkpoint
    /// never wins that race (new frames land while it copies), so the log would grow to `limit`,
    /// the writer would stop there for a long checkpoint, and every commit on the way would write
    /// to a longer log. So once the background checkpoint is close to the end, the writer copies
    /// the rest itself in `afterCommit`, and its next transaction starts the log over.
    private func logGrew(to frames: Int) {
        guard let checkpointer else { return }
        if frames < framesAtLastCommit {
            checkpointer.trace?.record(.restart, Int64(framesAtLastCommit))
            checkpointer.logStartedOver()
        }
        framesAtLastCommit = frames
        let progress =
            frames >= checkpointer.threshold && frames < checkpointer.limit
            ? checkpointer.progress(towards: frames, within: WALCheckpointer.catchUpFrames) : .running
        switch restart.logGrew(frames: frames, threshold: checkpointer.threshold, limit: checkpointer.limit, progress: progress) {
        case .none: break
        case .requestPass: checkpointer.request()
        case .checkpointAtLimit:
            checkpointer.trace?.record(.limitBegin, Int64(frames))
            let status = checkpointPassively().status
            checkpointer.trace?.record(.limitEnd, Int64(status))
            checkpointer.recordWriterCheckpoint()
        }
    }

    /// Copies the last frames of the log into the database file when the background checkpoint
    /// left only those, without an fsync on this thread.
    ///
    /// SQLite's own checkpoint would fsync the log before copying and the database file after:
    /// two fsyncs during which the writer could neither run nor commit anything, plus the new
    /// log's header fsync in the next COMMIT — on a slow disk the writer fell behind by four
    /// fsyncs at every restart and its queue took many more to drain. Here the log is made
    /// durable by the syncer (`waitUntilDurable`: the batch just committed is its only unsynced
    /// part), the copy runs with `synchronous=OFF`, and the database file's fsync runs on the
    /// checkpointer's thread while this one goes on with the next batch; only its COMMIT, which
    /// writes the new log over the old one, waits for that fsync (`holdsNextCommit`).
    func afterCommit(waitUntilDurable: () -> Void) {
        guard let checkpointer, restart.takeCopyDue() else { return }
        checkpointer.trace?.record(.catchUpBegin, Int64(framesAtLastCommit))
        waitUntilDurable()
        checkpointer.trace?.record(.catchUpDurable)
        let result = copyWithoutSync()
        checkpointer.trace?.record(.catchUpEnd, Int64(result.status), Int64(result.copiedFrames))
        checkpointer.recordWriterCatchUp(succeeded: result.status == SQLITE_OK)
        let reachedEnd = result.status == SQLITE_OK && result.logFrames > 0 && result.copiedFrames == result.logFrames
        guard restart.copied(reachedEnd: reachedEnd) else { return }
        // The log may start over at the next commit, so none of that commit's pages may reach the
        // log before the database file is durable: the pager must not spill them before COMMIT.
        // Should that not take, the file is synced here instead.
        do {
            try run("PRAGMA cache_spill = OFF")
            checkpointer.requestFileSync()
        } catch {
            _ = restart.syncedHere(succeeded: syncDatabaseFile() == SQLITE_OK)
        }
    }

    /// A PASSIVE checkpoint with SQLite's fsyncs turned off for it (the log is already durable;
    /// the database file's fsync is the caller's).
    private func copyWithoutSync() -> (status: Int32, logFrames: Int, copiedFrames: Int) {
        do {
            try run("PRAGMA synchronous = OFF")
        } catch {
            return (SQLITE_ERROR, 0, 0)
        }
        let result = checkpointPassively()
        do {
            try run("PRAGMA synchronous = \(commitSynchronous)")
        } catch {
            // Commits must not run unsynced: refuse them until the server restarts.
            restart.block()
        }
        return result
    }

    /// Calls `handler` whenever the checkpointer ends a fsync of the database file this
    /// connection's next COMMIT may be waiting for.
    func setCommitHoldHandler(_ handler: @escaping @Sendable () -> Void) {
        checkpointer?.setFileSyncHandler(handler)
    }

    /// Whether the next COMMIT must wait: the database file's fsync that lets the log start over
    /// is still running.
    var holdsNextCommit: Bool {
        guard let checkpointer, restart.phase == .awaitingFileSync else { return false }
        return restart.holdsCommit(checkpointer.fileSyncState)
    }

    /// Called right before COMMIT, once `holdsNextCommit` is false: throws when the database
    /// file could not be made durable (then no commit succeeds until the server restarts).
    /// Should the checkpointer's thread not have run the fsync, this thread runs it.
    func releaseCommitHold() throws(StoreError) {
        guard restart.phase != .appending else { return }
        let outcome = checkpointer?.takeFileSyncOutcome() ?? .notRun
        var commits: Bool
        switch restart.release(outcome) {
        case .commit: commits = true
        case .refuse: commits = false
        case .syncHere: commits = restart.syncedHere(succeeded: syncDatabaseFile() == SQLITE_OK)
        }
        guard commits else {
            throw StoreError(
                .io,
                "the database file could not be synced before the log started over; "
                    + "no write is acknowledged until the server restarts")
        }
        try run("PRAGMA cache_spill = ON")
    }

    /// Copies into the database file every log frame no reader still needs; returns SQLite's
    /// status (`SQLITE_BUSY` when another connection holds the checkpoint lock — the next one retries).
    func checkpointPassively() -> (status: Int32, logFrames: Int, copiedFrames: Int) {
        var logFrames: Int32 = 0
        var copiedFrames: Int32 = 0
        let status = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &copiedFrames)
        return (status & 0xFF, Int(logFrames), Int(copiedFrames))
    }

    var lastInsertRowID: Int64? { sqlite3_last_insert_rowid(handle) }

    /// fsyncs the database file through SQLite's own handle of it; returns SQLite's status.
    func syncDatabaseFile() -> Int32 {
        parley_sqlite3_sync_main_file(handle)
    }

    private func enableWriteAheadLog() throws(StoreError) {
        var mode = ""
        do {
            try query("PRAGMA journal_mode = WAL", []) { row in mode = row.text(0) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.internal, "\(error)")
        }
        guard mode.lowercased() == "wal" else {
            throw StoreError(.io, "SQLite database at \(path) refused WAL journaling (mode \(mode))")
        }
    }

    func execute(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> Int {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    func query(_ sql: String, _ parameters: [SQLValue], _ body: (any SQLRow) throws -> Void) throws {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        while try statement.step() {
            try body(statement)
        }
    }

    func run(_ sql: String) throws(StoreError) {
        if !Self.hasSemicolon(sql) {
            // Single statements (BEGIN, SAVEPOINT, COMMIT…) run from the statement cache.
            _ = try execute(sql, [])
            return
        }
        owner.check("SQLiteConnection at \(path)")
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            throw error(status, context: message.map { String(cString: $0) } ?? sql)
        }
    }

    /// Whether `sql` holds a `;`: a loop over its contiguous UTF-8 buffer (every literal's), far
    /// cheaper per byte than the generic `utf8.contains` walk; the writer runs this per transaction.
    private static func hasSemicolon(_ sql: String) -> Bool {
        let semicolon = UInt8(ascii: ";")
        return sql.utf8.withContiguousStorageIfAvailable { $0.contains(semicolon) } ?? sql.utf8.contains(semicolon)
    }

    func reconnect() throws(StoreError) {}

    /// An embedded database has no round trips to save: the statements simply run one after another.
    func pipeline(_ statements: [SQLStatement], _ row: (Int, any SQLRow) -> Void) throws(StoreError) {
        for (index, statement) in statements.enumerated() {
            let prepared = try prepared(statement.sql)
            defer { prepared.reset() }
            try prepared.bind(statement.parameters)
            while try prepared.step() {
                row(index, prepared)
            }
        }
    }

    var roundTrips: Int { 0 }

    /// The cached statement for `sql`, prepared on first use.
    private func prepared(_ sql: String) throws(StoreError) -> SQLiteStatement {
        owner.check("SQLiteConnection at \(path)")
        if let statement = statements[sql] { return statement }
        let statement = try SQLiteStatement(connection: self, database: handle, sql: Self.sqliteParameters(sql))
        statements[sql] = statement
        return statement
    }

    /// Rewrites PostgreSQL-style `$N` parameters to SQLite's `?N`.
    ///
    /// Parley's statements never contain `$` inside string literals, so a plain scan is enough.
    static func sqliteParameters(_ sql: String) -> String {
        var bytes = Array(sql.utf8)
        for index in bytes.indices where bytes[index] == UInt8(ascii: "$") {
            let next = index + 1
            if next < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[next]) {
                bytes[index] = UInt8(ascii: "?")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Translates an SQLite result code into a `StoreError` with the connection's message.
    func error(_ status: Int32, context: String) -> StoreError {
        let message = "\(context): \(String(cString: sqlite3_errmsg(handle))) (SQLite \(status))"
        return StoreError(Self.code(for: status), message)
    }

    /// The stable code for an (extended) SQLite result code.
    static func code(for status: Int32) -> StoreError.Code {
        // Extended codes: SQLITE_CONSTRAINT | (n << 8); Swift does not import these macros.
        switch status {
        case SQLITE_CONSTRAINT | (8 << 8), SQLITE_CONSTRAINT | (6 << 8): return .alreadyExists  // UNIQUE, PRIMARYKEY
        case SQLITE_CONSTRAINT | (3 << 8): return .foreignKeyViolation  // FOREIGNKEY
        default: break
        }
        switch status & 0xFF {
        case SQLITE_CONSTRAINT: return .constraintViolation
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY: return .io
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        default: return .internal
        }
    }
}
