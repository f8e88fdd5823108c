import CSQLite

/// Raw SQLite writes with the server's settings: WAL, `synchronous=FULL`, foreign keys on.
final class RawSQLiteWriter: RawWriter {
    let engine = "sqlite"
    private let handle: OpaquePointer
    private var inserts: [Int: OpaquePointer] = [:]
    private var roomUpdate: OpaquePointer?
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws(BenchError) {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let database
        else {
            throw BenchError("sql", "cannot open \(path)")
        }
        handle = database
        sqlite3_busy_timeout(database, 5_000)
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA synchronous = FULL")
        try execute("PRAGMA journal_mode = WAL")
    }

    deinit {
        for statement in inserts.values { sqlite3_finalize(statement) }
        if let roomUpdate { sqlite3_finalize(roomUpdate) }
        sqlite3_close_v2(handle)
    }

    func createRooms(app: String, _ ids: [String], now: Int64) throws(BenchError) {
        try execute("BEGIN IMMEDIATE")
        for id in ids {
            try execute(
                """
                INSERT INTO rooms (app_id, id, kind, name, last_seq, last_activity_at, member_count, created_at, updated_at)
                VALUES ('\(app)', '\(id)', 'private', '\(id)', 0, \(now), 0, \(now), \(now))
                """)
        }
        try execute("COMMIT")
    }

    func begin() throws(BenchError) { try execute("BEGIN IMMEDIATE") }

    func commit() throws(BenchError) { try execute("COMMIT") }

    func insert(_ rows: ArraySlice<RawRow>) throws(BenchError) {
        let statement = try insertStatement(rows: rows.count)
        var index: Int32 = 1
        for row in rows {
            bind(statement, index, row.app)
            bind(statement, index + 1, row.room)
            sqlite3_bind_int64(statement, index + 2, row.seq)
            bind(statement, index + 3, row.sender)
            bind(statement, index + 4, row.clientID)
            bind(statement, index + 5, row.parts)
            sqlite3_bind_int64(statement, index + 6, row.createdAt)
            index += Int32(RawRow.columnCount)
        }
        try step(statement)
    }

    func updateRoom(app: String, _ id: String, lastSeq: Int64, now: Int64) throws(BenchError) {
        if roomUpdate == nil {
            roomUpdate = try prepare("UPDATE rooms SET last_seq = ?1, last_activity_at = ?2 WHERE app_id = ?3 AND id = ?4")
        }
        guard let statement = roomUpdate else { return }
        sqlite3_bind_int64(statement, 1, lastSeq)
        sqlite3_bind_int64(statement, 2, now)
        bind(statement, 3, app)
        bind(statement, 4, id)
        try step(statement)
    }

    private func insertStatement(rows: Int) throws(BenchError) -> OpaquePointer {
        if let statement = inserts[rows] { return statement }
        let statement = try prepare(RawRow.insertStatement(rows: rows) { "?\($0)" })
        inserts[rows] = statement
        return statement
    }

    private func bind(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                _ = sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), Self.transient)
            }
        }
    }

    private func step(_ statement: OpaquePointer) throws(BenchError) {
        defer { sqlite3_reset(statement) }
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else { throw BenchError("sql", lastMessage) }
    }

    private func prepare(_ sql: String) throws(BenchError) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("sql", "\(lastMessage) in \(sql.prefix(120))")
        }
        return statement
    }

    private func execute(_ sql: String) throws(BenchError) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw BenchError("sql", "\(lastMessage) in \(sql.prefix(120))") }
    }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}
