#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
#ifdef __linux__
#define _GNU_SOURCE 1
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <errno.h>

static inline int clinux_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    return accept4(fd, addr, len, flags);
}
#endif
#endif
