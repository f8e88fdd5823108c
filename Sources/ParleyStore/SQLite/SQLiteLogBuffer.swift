import CSQLite
import CSQLiteLogBuffer

/// The VFS every Parley connection opens SQLite files through: the default one, except that
/// writes to a write-ahead log are gathered and reach the file in a few large writes per
/// transaction (see `parley_log_buffer.h` for when they are written out).
///
/// SQLite writes each log frame as two writes, a 24-byte header and then its page; with 4 KiB
/// pages each frame straddles two of the file's pages, so the kernel did three page updates and
/// two system calls per frame — about a sixth of the writer thread's time under load.
enum SQLiteLogBuffer {
    /// The VFS name to open connections with, registered on first use; nil (SQLite's default
    /// VFS, unbuffered) should registering fail, which costs speed, not correctness.
    static let vfsName: String? = parley_log_buffer_register() == SQLITE_OK ? PARLEY_LOG_BUFFER_VFS : nil

    /// Writes to the log at `path` through this VFS, summed over its open handles: as SQLite
    /// asked for them (`logical`) and as they reached the file (`physical`).
    static func writeCounts(logPath path: String) -> (logical: UInt64, physical: UInt64) {
        var logical: sqlite3_uint64 = 0, physical: sqlite3_uint64 = 0
        _ = parley_log_buffer_statistics(path, &logical, &physical)
        return (UInt64(logical), UInt64(physical))
    }

    /// How many times SQLite synced a log through this VFS on the calling thread.
    static var syncsOnThisThread: UInt64 { UInt64(parley_log_buffer_thread_syncs()) }
}
