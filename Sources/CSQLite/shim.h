#include <sqlite3.h>

/// Turns off SQLite's process-wide memory statistics: with them on, every allocation of every
/// connection takes one global mutex (5% of the writer thread's time under load).
/// Must run before the first connection opens; returns SQLITE_MISUSE afterwards.
static inline int parley_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// fsyncs the main database file of `db` through SQLite's own file handle (its VFS's xSync), so
/// no second descriptor of the file is opened (closing one would drop the process's POSIX locks).
static inline int parley_sqlite3_sync_main_file(sqlite3 *db) {
    sqlite3_file *file = 0;
    int status = sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file);
    if (status != SQLITE_OK) return status;
    if (file == 0 || file->pMethods == 0 || file->pMethods->xSync == 0) return SQLITE_MISUSE;
    return file->pMethods->xSync(file, SQLITE_SYNC_NORMAL);
}

