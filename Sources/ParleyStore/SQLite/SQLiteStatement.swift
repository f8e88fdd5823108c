import CSQLite

/// SQLite asks for a copy of bound text and blobs with this sentinel destructor.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared SQLite statement; owns its `sqlite3_stmt*` and finalizes it on release.
///
/// Confined to the connection's thread, like the connection that prepared it.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    /// Prepares `sql` (already in SQLite's `?N` parameter form) as a long-lived statement.
    init(connection: SQLiteConnection, database: OpaquePointer, sql: String) throws(StoreError) {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw connection.error(status, context: "prepare")
        }
        self.handle = statement
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `parameters` to `?1`, `?2`… in order.
    func bind(_ parameters: [SQLValue]) throws(StoreError) {
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null:
                status = sqlite3_bind_null(handle, index)
            case .integer(let number):
                status = sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                status = sqlite3_bind_double(handle, index, number)
            case .text(let string):
                var copy = string
                status = copy.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_bind_text(handle, index, "", 0, transientDestructor)
                    }
                    return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                        sqlite3_bind_text(handle, index, chars, Int32(bytes.count), transientDestructor)
                    }
                }
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob(
                        handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), transientDestructor)
                }
            }
            guard status == SQLITE_OK else { throw connection.error(status, context: "bind") }
        }
    }

    /// Advances to the next row; false when the statement is done.
    func step() throws(StoreError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(status, context: "step")
        }
    }

    /// Resets the statement and clears its bindings so it can run again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}

extension SQLiteStatement: SQLRow {
    func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
    }

    func int64(_ column: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(column))
    }

    func double(_ column: Int) -> Double {
        sqlite3_column_double(handle, Int32(column))
    }

    func text(_ column: Int) -> String {
        guard let bytes = sqlite3_column_text(handle, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func blob(_ column: Int) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, Int32(column)) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
