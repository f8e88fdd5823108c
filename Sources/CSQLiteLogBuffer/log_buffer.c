#include "parley_log_buffer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/// Largest run of log bytes held in memory; a batch of 512 sends writes about 2 MiB.
#define BUFFER_CAPACITY (4 << 20)
/// Largest single write handed to the default VFS, whose unix write masks lengths to 17 bits.
#define WRITE_CHUNK (124 << 10)
/// SQLite's frame header: page number, database size after a commit (0 otherwise), salts, checksums.
#define FRAME_HEADER_SIZE 24

/// One open write-ahead log. `real` is the default VFS's file, placed right after this struct.
typedef struct LogFile {
    sqlite3_file base;
    sqlite3_file *real;
    char *path;
    unsigned char *buffer;
    sqlite3_int64 start;
    int used;
    /// The last write was the header of a commit frame, so the next one is its page.
    int commitPageNext;
    /// The log was read since the last write.
    int readSinceWrite;
    _Atomic sqlite3_uint64 logicalWrites;
    _Atomic sqlite3_uint64 physicalWrites;
    struct LogFile *next;
    struct LogFile *previous;
} LogFile;

static sqlite3_vfs *underlying;
static sqlite3_vfs bufferingVFS;
static pthread_once_t registration = PTHREAD_ONCE_INIT;
static int registrationStatus = SQLITE_OK;
static pthread_mutex_t openLogsLock = PTHREAD_MUTEX_INITIALIZER;
static LogFile *openLogs;

static int realOffset(void) {
    return (int)((sizeof(LogFile) + 7) & ~(size_t)7);
}

static void count(_Atomic sqlite3_uint64 *counter) {
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
}

static int writeThrough(LogFile *log, const void *data, int amount, sqlite3_int64 offset) {
    const unsigned char *bytes = data;
    int status = SQLITE_OK;
    for (int done = 0; done < amount && status == SQLITE_OK; done += WRITE_CHUNK) {
        int chunk = amount - done < WRITE_CHUNK ? amount - done : WRITE_CHUNK;
        count(&log->physicalWrites);
        status = log->real->pMethods->xWrite(log->real, bytes + done, chunk, offset + done);
    }
    return status;
}

/// Writes the gathered bytes to the file, in as few writes as the default VFS allows.
static int flush(LogFile *log) {
    if (log->used == 0) return SQLITE_OK;
    int status = writeThrough(log, log->buffer, log->used, log->start);
    log->used = 0;
    return status;
}

/// Whether the frame header at `data` has its database-size field set, which SQLite does only
/// for the last frame of a commit.
static int declaresCommit(const unsigned char *data) {
    return (data[4] | data[5] | data[6] | data[7]) != 0;
}

/// Whether `data` is a commit frame's header alone.
static int isCommitFrameHeader(const unsigned char *data, int amount) {
    return amount == FRAME_HEADER_SIZE && declaresCommit(data);
}

/// Whether `data` holds a whole commit frame, header and page, should SQLite write them together.
static int isWholeCommitFrame(const unsigned char *data, int amount) {
    int page = amount - FRAME_HEADER_SIZE;
    return page >= 512 && page <= 65536 && (page & (page - 1)) == 0 && declaresCommit(data);
}

/// Gathers a write, or writes it through.
///
/// While SQLite appends a transaction's frames it only writes, header then page, each write
/// continuing the last; those are gathered, and written out with the commit frame's page. A write
/// that follows a read goes straight to the file: that is how SQLite rewrites the checksums of
/// frames it already wrote (read a frame, write its header) after the commit frame, and a header
/// left in memory then would be missing from the log that the commit's fsync makes durable.
static int logWrite(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    LogFile *log = (LogFile *)file;
    count(&log->logicalWrites);
    int endsCommit = log->commitPageNext || isWholeCommitFrame(data, amount);
    log->commitPageNext = isCommitFrameHeader(data, amount);
    int followsRead = log->readSinceWrite;
    log->readSinceWrite = 0;
    if (log->used > 0 && (offset != log->start + log->used || log->used + amount > BUFFER_CAPACITY || followsRead)) {
        int status = flush(log);
        if (status != SQLITE_OK) return status;
    }
    if (followsRead || amount > BUFFER_CAPACITY) return writeThrough(log, data, amount, offset);
    if (log->buffer == NULL) log->buffer = malloc(BUFFER_CAPACITY);
    if (log->buffer == NULL) return writeThrough(log, data, amount, offset);
    if (log->used == 0) log->start = offset;
    memcpy(log->buffer + log->used, data, (size_t)amount);
    log->used += amount;
    return endsCommit ? flush(log) : SQLITE_OK;
}

static int logRead(sqlite3_file *file, void *data, int amount, sqlite3_int64 offset) {
    LogFile *log = (LogFile *)file;
    log->readSinceWrite = 1;
    if (log->used > 0 && offset < log->start + log->used && offset + amount > log->start) {
        int status = flush(log);
        if (status != SQLITE_OK) return status;
    }
    return log->real->pMethods->xRead(log->real, data, amount, offset);
}

static int logTruncate(sqlite3_file *file, sqlite3_int64 size) {
    LogFile *log = (LogFile *)file;
    int status = flush(log);
    return status != SQLITE_OK ? status : log->real->pMethods->xTruncate(log->real, size);
}

/// fsyncs of a log made by each thread (the store's trace tells its writer's own from the syncer's).
static _Thread_local sqlite3_uint64 threadLogSyncs;

static int logSync(sqlite3_file *file, int flags) {
    LogFile *log = (LogFile *)file;
    threadLogSyncs += 1;
    int status = flush(log);
    return status != SQLITE_OK ? status : log->real->pMethods->xSync(log->real, flags);
}

static int logFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    LogFile *log = (LogFile *)file;
    int status = flush(log);
    return status != SQLITE_OK ? status : log->real->pMethods->xFileSize(log->real, size);
}

static void forget(LogFile *log) {
    pthread_mutex_lock(&openLogsLock);
    if (log->previous) log->previous->next = log->next; else openLogs = log->next;
    if (log->next) log->next->previous = log->previous;
    pthread_mutex_unlock(&openLogsLock);
    free(log->path);
    free(log->buffer);
    log->path = NULL;
    log->buffer = NULL;
}

static int logClose(sqlite3_file *file) {
    LogFile *log = (LogFile *)file;
    int flushed = flush(log);
    int closed = log->real->pMethods->xClose(log->real);
    forget(log);
    return flushed != SQLITE_OK ? flushed : closed;
}

static int logLock(sqlite3_file *file, int level) {
    LogFile *log = (LogFile *)file;
    return log->real->pMethods->xLock(log->real, level);
}

static int logUnlock(sqlite3_file *file, int level) {
    LogFile *log = (LogFile *)file;
    return log->real->pMethods->xUnlock(log->real, level);
}

static int logCheckReservedLock(sqlite3_file *file, int *result) {
    LogFile *log = (LogFile *)file;
    return log->real->pMethods->xCheckReservedLock(log->real, result);
}

static int logFileControl(sqlite3_file *file, int operation, void *argument) {
    LogFile *log = (LogFile *)file;
    int status = flush(log);
    return status != SQLITE_OK ? status : log->real->pMethods->xFileControl(log->real, operation, argument);
}

static int logSectorSize(sqlite3_file *file) {
    LogFile *log = (LogFile *)file;
    return log->real->pMethods->xSectorSize(log->real);
}

static int logDeviceCharacteristics(sqlite3_file *file) {
    LogFile *log = (LogFile *)file;
    return log->real->pMethods->xDeviceCharacteristics(log->real);
}

/// Version 1 methods: SQLite maps shared memory and pages only through the database file.
static const sqlite3_io_methods logMethods = {
    1, logClose, logRead, logWrite, logTruncate, logSync, logFileSize, logLock, logUnlock,
    logCheckReservedLock, logFileControl, logSectorSize, logDeviceCharacteristics,
    NULL, NULL, NULL, NULL, NULL, NULL
};

static int openFile(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    if ((flags & SQLITE_OPEN_WAL) == 0 || name == NULL) {
        // Any other file is the default VFS's own, in the space SQLite gave us.
        return underlying->xOpen(underlying, name, file, flags, outFlags);
    }
    LogFile *log = (LogFile *)file;
    memset(log, 0, sizeof(LogFile));
    log->real = (sqlite3_file *)((char *)file + realOffset());
    log->path = strdup(name);
    if (log->path == NULL) return SQLITE_NOMEM;
    int status = underlying->xOpen(underlying, name, log->real, flags, outFlags);
    if (status != SQLITE_OK) {
        if (log->real->pMethods) log->real->pMethods->xClose(log->real);
        free(log->path);
        log->path = NULL;
        return status;
    }
    pthread_mutex_lock(&openLogsLock);
    log->next = openLogs;
    if (openLogs) openLogs->previous = log;
    openLogs = log;
    pthread_mutex_unlock(&openLogsLock);
    log->base.pMethods = &logMethods;
    return SQLITE_OK;
}

static int deleteFile(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    (void)vfs;
    return underlying->xDelete(underlying, name, syncDirectory);
}

static int access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return underlying->xAccess(underlying, name, flags, result);
}

static int fullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return underlying->xFullPathname(underlying, name, size, out);
}

static void *dlOpen(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return underlying->xDlOpen(underlying, name);
}

static void dlError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    underlying->xDlError(underlying, size, out);
}

static void (*dlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return underlying->xDlSym(underlying, handle, symbol);
}

static void dlClose(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    underlying->xDlClose(underlying, handle);
}

static int randomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return underlying->xRandomness(underlying, size, out);
}

static int sleepFor(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return underlying->xSleep(underlying, microseconds);
}

static int currentTime(sqlite3_vfs *vfs, double *now) {
    (void)vfs;
    return underlying->xCurrentTime(underlying, now);
}

static int lastError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return underlying->xGetLastError ? underlying->xGetLastError(underlying, size, out) : 0;
}

static int currentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return underlying->xCurrentTimeInt64(underlying, now);
}

static void registerOnce(void) {
    underlying = sqlite3_vfs_find(NULL);
    if (underlying == NULL || underlying->iVersion < 2) {
        registrationStatus = SQLITE_ERROR;
        return;
    }
    bufferingVFS.iVersion = 2;
    bufferingVFS.szOsFile = realOffset() + underlying->szOsFile;
    bufferingVFS.mxPathname = underlying->mxPathname;
    bufferingVFS.zName = PARLEY_LOG_BUFFER_VFS;
    bufferingVFS.xOpen = openFile;
    bufferingVFS.xDelete = deleteFile;
    bufferingVFS.xAccess = access;
    bufferingVFS.xFullPathname = fullPathname;
    bufferingVFS.xDlOpen = dlOpen;
    bufferingVFS.xDlError = dlError;
    bufferingVFS.xDlSym = dlSym;
    bufferingVFS.xDlClose = dlClose;
    bufferingVFS.xRandomness = randomness;
    bufferingVFS.xSleep = sleepFor;
    bufferingVFS.xCurrentTime = currentTime;
    bufferingVFS.xGetLastError = lastError;
    bufferingVFS.xCurrentTimeInt64 = currentTimeInt64;
    registrationStatus = sqlite3_vfs_register(&bufferingVFS, 0);
}

int parley_log_buffer_register(void) {
    pthread_once(&registration, registerOnce);
    return registrationStatus;
}

int parley_log_buffer_statistics(const char *path, sqlite3_uint64 *logical, sqlite3_uint64 *physical) {
    int handles = 0;
    *logical = 0;
    *physical = 0;
    pthread_mutex_lock(&openLogsLock);
    for (LogFile *log = openLogs; log; log = log->next) {
        if (strcmp(log->path, path) != 0) continue;
        handles += 1;
        *logical += atomic_load_explicit(&log->logicalWrites, memory_order_relaxed);
        *physical += atomic_load_explicit(&log->physicalWrites, memory_order_relaxed);
    }
    pthread_mutex_unlock(&openLogsLock);
    return handles;
}

sqlite3_uint64 parley_log_buffer_thread_syncs(void) {
    return threadLogSyncs;
}
