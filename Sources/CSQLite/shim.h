#include <sqlite3.h>

/// Turns off SQLite's process-wide memory statistics: with them on, every allocation of every
/// connection takes one global mutex (5% of the writer thread's time under load).
/// Must run before the first connection opens; returns SQLITE_MISUSE afterwards.
static inline int parley_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
