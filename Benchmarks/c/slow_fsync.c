/*
 * slow_fsync.so: an LD_PRELOAD shim that makes every fsync(2) and fdatasync(2) of a process take
 * a fixed extra time, the way a network block device behaves (cloud volumes commonly take 2-20 ms
 * per flush). The real call runs first, so nothing is less durable than without the shim.
 *
 *   SLOW_FSYNC_US=10000 LD_PRELOAD=Benchmarks/bin/slow_fsync.so parley serve ...
 *
 * SLOW_FSYNC_US      extra microseconds per call (0 or unset: none)
 * SLOW_FSYNC_SERIAL  1: one flush at a time across the process, like a device with a queue depth
 *                    of one (by default concurrent calls wait side by side)
 * SLOW_FSYNC_LOG     a file to which every call appends "start_ns end_ns fd kind thread-name"
 *                    (CLOCK_MONOTONIC nanoseconds; the thread that called)
 *
 * Built by Benchmarks/build_slow_fsync.sh (run_chat.sh builds it when FSYNC_DELAY_MS is set).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long delay_us;
static int serial;
static int log_fd = -1;
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static pthread_mutex_t serial_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void setup(void) {
    const char *value = getenv("SLOW_FSYNC_US");
    delay_us = value ? strtol(value, NULL, 10) : 0;
    if (delay_us < 0) delay_us = 0;
    value = getenv("SLOW_FSYNC_SERIAL");
    serial = value && strcmp(value, "1") == 0;
    value = getenv("SLOW_FSYNC_LOG");
    if (value && *value) log_fd = open(value, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
}

static unsigned long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

static void pause_for_delay(void) {
    struct timespec left = {delay_us / 1000000, (delay_us % 1000000) * 1000};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {}
}

/* Runs the real flush, then waits out the delay; errno is the real call's. */
static int slowed(int (*real)(int), int fd, const char *kind) {
    pthread_once(&once, setup);
    unsigned long long start = log_fd >= 0 ? now_ns() : 0;
    if (serial) pthread_mutex_lock(&serial_lock);
    int status = real(fd);
    int saved = errno;
    if (delay_us > 0) pause_for_delay();
    if (serial) pthread_mutex_unlock(&serial_lock);
    if (log_fd >= 0) {
        char name[17] = {0};
        (void)prctl(PR_GET_NAME, name, 0, 0, 0);
        for (char *c = name; *c; c++) if (*c == ' ') *c = '_';
        char line[128];
        int length = snprintf(line, sizeof line, "%llu %llu %d %s %s\n", start, now_ns(), fd, kind, name);
        if (length > 0) (void)!write(log_fd, line, (size_t)length);
    }
    errno = saved;
    return status;
}

int fsync(int fd) { pthread_once(&once, setup); return slowed(real_fsync, fd, "fsync"); }
int fdatasync(int fd) { pthread_once(&once, setup); return slowed(real_fdatasync, fd, "fdatasync"); }
