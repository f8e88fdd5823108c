import CSQLite

/// A consistent copy of a live SQLite database, taken with SQLite's online backup API while
/// a server keeps writing: the copy is the database as of one committed transaction.
public enum SQLiteBackup {
    /// Copies the database at `source` into a new file at `destination` (which must not
    /// exist). All pages are copied in one step, inside one read transaction on the source:
    /// in WAL mode the server's writer carries on beside it, and the copy is the snapshot
    /// that read transaction saw (copying in several steps would restart whenever the server
    /// committed between them).
    public static func copy(from source: String, to destination: String) throws(StoreError) {
        var from: OpaquePointer?
        guard sqlite3_open_v2(source, &from, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let from else {
            let message = from.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(from)
            throw StoreError(.io, "cannot open \(source): \(message)")
        }
        defer { sqlite3_close_v2(from) }
        sqlite3_busy_timeout(from, 5_000)
        var to: OpaquePointer?
        guard sqlite3_open_v2(destination, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let to else {
            let message = to.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(to)
            throw StoreError(.io, "cannot create \(destination): \(message)")
        }
        defer { sqlite3_close_v2(to) }
        guard let backup = sqlite3_backup_init(to, "main", from, "main") else {
            throw StoreError(.io, "cannot start the backup: \(String(cString: sqlite3_errmsg(to)))")
        }
        // All pages in one step: the copy holds a read transaction on the source for its
        // length, which WAL mode lets the server's writer work beside.
        let status = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE, finished == SQLITE_OK else {
            throw StoreError(.io, "the backup failed: \(String(cString: sqlite3_errstr(status == SQLITE_DONE ? finished : status)))")
        }
        guard sqlite3_exec(to, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil) == SQLITE_OK else {
            throw StoreError(.io, "cannot finish \(destination): \(String(cString: sqlite3_errmsg(to)))")
        }
    }
}
