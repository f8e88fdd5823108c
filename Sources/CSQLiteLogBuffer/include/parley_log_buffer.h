#ifndef PARLEY_LOG_BUFFER_H
#define PARLEY_LOG_BUFFER_H

#include <sqlite3.h>

/// The name of the VFS `parley_log_buffer_register` adds.
#define PARLEY_LOG_BUFFER_VFS "parley-log-buffer"

/// Registers, once per process, a VFS named `PARLEY_LOG_BUFFER_VFS` over the default one.
///
/// It differs from the default VFS in one way: writes to a write-ahead log are gathered in
/// memory and reach the file in a few large writes per transaction instead of two per page
/// (SQLite writes each frame's 24-byte header and its page separately, and its 4 KiB pages then
/// straddle the file's pages). What is gathered is written out before the write of a commit
/// frame's page returns, so it is in the file before SQLite publishes the commit in the log's
/// index, and before anything reads, syncs, sizes or truncates the log. A write that follows a
/// read of the log is not gathered: SQLite rewrites frame checksums that way after the commit
/// frame. Every other file is the default VFS's.
///
/// Returns SQLITE_OK, or the error of registering.
int parley_log_buffer_register(void);

/// Counts of writes to the log at `path` through this VFS, summed over its open handles:
/// `logical` as SQLite asked for them, `physical` as they reached the file.
/// Returns the number of open handles of that log.
int parley_log_buffer_statistics(const char *path, sqlite3_uint64 *logical, sqlite3_uint64 *physical);

/// How many times SQLite asked, on the calling thread, for a log opened through this VFS to be
/// synced (the header sync of a log that starts over, a checkpoint's sync of the log).
sqlite3_uint64 parley_log_buffer_thread_syncs(void);

#endif
