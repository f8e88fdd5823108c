#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
#ifdef __linux__
/* No _GNU_SOURCE here: the headers must match Swift's Glibc module; the two GNU calls we
   need are declared below instead. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <stdlib.h>

extern int accept4(int, struct sockaddr *, socklen_t *, int);
extern int pipe2(int[2], int);
extern int pthread_setname_np(pthread_t, const char *);

/* Names the calling thread (as `top -H` and `perf` show it); at most 15 bytes, else ERANGE. */
static inline int clinux_name_current_thread(const char *name) { return pthread_setname_np(pthread_self(), name); }

static inline int clinux_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    return accept4(fd, addr, len, flags);
}

/* epoll_event is a packed struct on x86_64; these accessors keep Swift away from its layout. */
static inline int clinux_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

static inline struct epoll_event *clinux_epoll_events_alloc(int count) {
    return (struct epoll_event *)calloc((size_t)count, sizeof(struct epoll_event));
}

static inline void clinux_epoll_events_free(struct epoll_event *events) { free(events); }

static inline int clinux_epoll_wait(int epfd, struct epoll_event *events, int max, int timeout) {
    return epoll_wait(epfd, events, max, timeout);
}

/// epoll_wait with a timeout in nanoseconds (epoll_pwait2, Linux 5.11): for waits that must end
/// between two milliseconds without a separate sleep.
static inline int clinux_epoll_wait_nanoseconds(int epfd, struct epoll_event *events, int max, long long nanoseconds) {
    struct timespec timeout = { .tv_sec = nanoseconds / 1000000000LL, .tv_nsec = nanoseconds % 1000000000LL };
    return epoll_pwait2(epfd, events, max, &timeout, NULL);
}

static inline uint32_t clinux_epoll_event_flags(const struct epoll_event *events, int index) {
    return events[index].events;
}

static inline uint64_t clinux_epoll_event_data(const struct epoll_event *events, int index) {
    return events[index].data.u64;
}

extern int sched_getaffinity(pid_t pid, size_t size, void *mask);

/* CPUs this process may run on (honours taskset/cgroup pinning); 0 if unknown. */
static inline int clinux_available_cpus(void) {
    unsigned long long mask[16];
    memset(mask, 0, sizeof(mask));
    if (sched_getaffinity(0, sizeof(mask), mask) != 0) return 0;
    int count = 0;
    for (int i = 0; i < 16; i++) count += __builtin_popcountll(mask[i]);
    return count;
}

/* send() without glibc's cancellation-point bracketing (two more calls around each system
   call): the loops never cancel threads, and a fan-out makes one send per subscriber. */
static inline ssize_t clinux_send(int fd, const void *bytes, size_t count, int flags) {
    return (ssize_t)syscall(SYS_sendto, fd, bytes, count, flags, NULL, 0);
}

static inline int clinux_iov_max(void) { long n = sysconf(_SC_IOV_MAX); return n > 0 ? (int)n : 1024; }

static inline int clinux_pipe2_nonblocking(int fds[2]) { return pipe2(fds, O_NONBLOCK | O_CLOEXEC); }

static inline int clinux_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static inline uint64_t clinux_monotonic_nanoseconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline int clinux_set_int_option(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof(value));
}

static inline int clinux_socket_error(int fd) {
    int err = 0;
    socklen_t len = sizeof(err);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) return errno;
    return err;
}

static inline void clinux_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

/* Thread entry for loop threads: Swift passes an opaque context and a C trampoline. */
typedef void (*clinux_thread_body)(void *);
struct clinux_thread_start { clinux_thread_body body; void *context; };

static void *clinux_thread_trampoline(void *arg) {
    struct clinux_thread_start start = *(struct clinux_thread_start *)arg;
    free(arg);
    start.body(start.context);
    return NULL;
}

static inline int clinux_thread_create(pthread_t *thread, clinux_thread_body body, void *context) {
    struct clinux_thread_start *start = (struct clinux_thread_start *)malloc(sizeof(*start));
    if (!start) return ENOMEM;
    start->body = body;
    start->context = context;
    int rc = pthread_create(thread, NULL, clinux_thread_trampoline, start);
    if (rc != 0) free(start);
    return rc;
}
#endif
#endif
