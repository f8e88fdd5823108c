/* Preloaded into the Swift test run by scripts/test.sh: records every close() that fails with
 * EBADF, with a backtrace, in the file named by PARLEY_CLOSE_GUARD_LOG.
 *
 * A descriptor closed twice is a bug that only sometimes shows: when another thread opened a
 * descriptor under the same number in between, the second close shuts that one instead (in a
 * test process that runs servers and clients side by side, another test's connection, which
 * its peer then sees reset). When nothing reused the number, the second close fails with
 * EBADF, harmlessly; that failure is what this catches, so the bug fails every run rather than
 * one run in many. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int (*next_close)(int);

static void record_bad_close(int fd) {
    const char *path = getenv("PARLEY_CLOSE_GUARD_LOG");
    if (path == NULL) return;
    int log = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (log < 0) return;
    char line[64];
    int length = snprintf(line, sizeof line, "close(%d): EBADF\n", fd);
    if (length > 0) (void)write(log, line, (size_t)length);
    void *frames[32];
    int count = backtrace(frames, 32);
    backtrace_symbols_fd(frames, count, log);
    (void)write(log, "\n", 1);
    next_close(log);
}

int close(int fd) {
    if (next_close == NULL) next_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
    int result = next_close(fd);
    if (result == -1 && errno == EBADF) {
        int saved = errno;
        record_bad_close(fd);
        errno = saved;
    }
    return result;
}
