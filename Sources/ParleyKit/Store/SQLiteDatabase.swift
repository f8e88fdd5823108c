#if canImport(CSQLite)
import CSQLite
#else
import SQLite3  // Apple platforms: the system's SQLite
#endif

/// An open SQLite database: owns the connection pointer and finalises every statement it
/// prepares before returning. Not thread-safe: one owner (the client actor) uses it.
final class SQLiteDatabase {
    private var handle: OpaquePointer?

    /// Opens (creating) the database at `path`; `":memory:"` for a private in-memory one.
    init(path: String) throws(ParleyError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw ParleyError(.storage, "opening \(path): \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(ParleyError) {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw ParleyError(.storage, message)
        }
    }

    /// Runs one statement with bound values and returns its rows.
    @discardableResult
    func query(_ sql: String, _ values: [SQLiteValue] = []) throws(ParleyError) -> [[SQLiteValue]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .integer(let number): rc = sqlite3_bind_int64(statement, index, number)
            case .null: rc = sqlite3_bind_null(statement, index)
            case .text(let text):
                rc = text.utf8CString.withUnsafeBufferPointer { chars in
                    sqlite3_bind_text(statement, index, chars.baseAddress, Int32(chars.count - 1), Self.transient)
                }
            }
            guard rc == SQLITE_OK else { throw failure(sql) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw failure(sql) }
            rows.append(readRow(statement))
        }
        return rows
    }

    private func readRow(_ statement: OpaquePointer) -> [SQLiteValue] {
        (0..<sqlite3_column_count(statement)).map { column in
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
            case SQLITE_NULL: return .null
            default:
                guard let text = sqlite3_column_text(statement, column) else { return .null }
                return .text(String(cString: text))
            }
        }
    }

    private func failure(_ sql: String) -> ParleyError {
        ParleyError(.storage, String(cString: sqlite3_errmsg(handle)) + " in: " + sql.prefix(60))
    }

    /// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
