/*
 * broadcast_server.c — minimal single-threaded epoll WebSocket broadcast server.
 *
 * The C baseline of the broadcast benchmark (see Benchmarks/README.md for the
 * protocol). Every text message received from any client is sent, unchanged, as one
 * unmasked text frame to every connected client, the sender included: the frame is
 * encoded once and handed to the kernel with one send() per recipient. A recipient
 * whose socket is full gets the rest queued in user space (bounded; a client that
 * falls more than OUT_LIMIT behind is dropped). `GET /healthz` answers 200 with
 * keep-alive, so the HTTP benchmark has a baseline too.
 *
 * Deliberately small: no fragmentation, no extensions, no TLS. Client frames must be
 * masked (RFC 6455 §5.1); SHA-1 and base64 for the handshake come from libcrypto.
 *
 *   cc -O2 -o broadcast_server broadcast_server.c -lcrypto
 *   broadcast_server [--host 127.0.0.1] [--port 9001] [--backlog 4096]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

enum { ST_FREE = 0, ST_HTTP, ST_WS };

#define READ_CHUNK (64 * 1024)
#define HTTP_HEAD_LIMIT 8192
#define MAX_PAYLOAD (64 * 1024)
#define OUT_LIMIT (1024 * 1024)

/* Per-connection state: kept tiny because idle RSS per connection is measured. The
 * input and output buffers exist only while there is a partial frame or unsent data. */
struct conn {
    uint8_t state;
    uint8_t want_out; /* EPOLLOUT currently requested */
    uint8_t doomed;   /* close once the current broadcast loop is over */
    int32_t sub_idx;  /* position in subs[], -1 when not subscribed */
    uint8_t *in;
    uint32_t in_len, in_cap;
    uint8_t *out;
    uint32_t out_off, out_len, out_cap;
};

static struct conn *conns; /* indexed by fd */
static int max_fds;
static int *subs; /* fds of open WebSocket connections */
static int nsubs;
static int *doomed_fds;
static int ndoomed;
static int epfd;
static int listen_fd;
static int reserve_fd = -1;
static uint8_t rbuf[READ_CHUNK + HTTP_HEAD_LIMIT + MAX_PAYLOAD + 16];
static uint8_t fbuf[MAX_PAYLOAD + 16];

static const char WS_GUID[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void epoll_set(int fd, int with_out) {
    struct epoll_event ev = {.events = EPOLLIN | (with_out ? EPOLLOUT : 0), .data.fd = fd};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev) < 0) die("epoll_ctl mod");
}

static void close_conn(int fd) {
    struct conn *c = &conns[fd];
    if (c->state == ST_FREE) return;
    if (c->sub_idx >= 0) {
        int last = subs[--nsubs];
        subs[c->sub_idx] = last;
        conns[last].sub_idx = c->sub_idx;
    }
    free(c->in);
    free(c->out);
    memset(c, 0, sizeof *c);
    c->sub_idx = -1;
    close(fd);
}

/* Marks a connection for closing after the loop that is iterating subs[] finishes. */
static void doom(int fd) {
    struct conn *c = &conns[fd];
    if (c->doomed) return;
    c->doomed = 1;
    doomed_fds[ndoomed++] = fd;
}

static void reap_doomed(void) {
    for (int i = 0; i < ndoomed; i++) close_conn(doomed_fds[i]);
    ndoomed = 0;
}

static int append_out(struct conn *c, const uint8_t *p, size_t n) {
    size_t pending = c->out_len - c->out_off;
    if (pending + n > OUT_LIMIT) return -1;
    if (c->out_off > 0 && c->out_len + n > c->out_cap) {
        memmove(c->out, c->out + c->out_off, pending);
        c->out_len = (uint32_t)pending;
        c->out_off = 0;
    }
    if (c->out_len + n > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 1024;
        while (cap < c->out_len + n) cap *= 2;
        uint8_t *nb = realloc(c->out, cap);
        if (!nb) return -1;
        c->out = nb;
        c->out_cap = (uint32_t)cap;
    }
    memcpy(c->out + c->out_len, p, n);
    c->out_len += (uint32_t)n;
    return 0;
}

/* One send() per delivery; whatever the kernel does not take waits in c->out. */
static void conn_send(int fd, const uint8_t *p, size_t n) {
    struct conn *c = &conns[fd];
    if (c->doomed) return;
    if (c->out_len == c->out_off) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w == (ssize_t)n) return;
        if (w < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                doom(fd);
                return;
            }
            w = 0;
        }
        p += w;
        n -= (size_t)w;
    }
    if (append_out(c, p, n) < 0) {
        doom(fd);
        return;
    }
    if (!c->want_out) {
        c->want_out = 1;
        epoll_set(fd, 1);
    }
}

static void flush_out(int fd) {
    struct conn *c = &conns[fd];
    while (c->out_off < c->out_len) {
        ssize_t w = send(fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            doom(fd);
            return;
        }
        c->out_off += (uint32_t)w;
    }
    /* Drained: give the memory back so idle connections stay small. */
    free(c->out);
    c->out = NULL;
    c->out_off = c->out_len = c->out_cap = 0;
    c->want_out = 0;
    epoll_set(fd, 0);
}

static size_t frame_header(uint8_t *h, uint8_t opcode, size_t len) {
    h[0] = (uint8_t)(0x80 | opcode);
    if (len < 126) {
        h[1] = (uint8_t)len;
        return 2;
    }
    if (len <= 0xFFFF) {
        h[1] = 126;
        h[2] = (uint8_t)(len >> 8);
        h[3] = (uint8_t)len;
        return 4;
    }
    h[1] = 127;
    for (int i = 0; i < 8; i++) h[2 + i] = (uint8_t)((uint64_t)len >> (56 - 8 * i));
    return 10;
}

static void broadcast_text(const uint8_t *payload, size_t len) {
    size_t hl = frame_header(fbuf, 0x1, len);
    memcpy(fbuf + hl, payload, len);
    size_t flen = hl + len;
    for (int i = 0; i < nsubs; i++) conn_send(subs[i], fbuf, flen);
}

static void send_control(int fd, uint8_t opcode, const uint8_t *payload, size_t len) {
    uint8_t f[2 + 125];
    if (len > 125) len = 125;
    size_t hl = frame_header(f, opcode, len);
    memcpy(f + hl, payload, len);
    conn_send(fd, f, hl + len);
}

static void close_with(int fd, uint16_t code) {
    uint8_t p[2] = {(uint8_t)(code >> 8), (uint8_t)code};
    send_control(fd, 0x8, p, 2);
    doom(fd);
}

/* Finds a header value (case-insensitive name) inside [head, end); returns its length. */
static size_t header_value(const char *head, const char *end, const char *name, const char **val) {
    size_t nl = strlen(name);
    const char *p = memchr(head, '\n', (size_t)(end - head));
    while (p && p + 1 < end) {
        const char *line = p + 1;
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol) break;
        if ((size_t)(eol - line) > nl && strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            const char *v = line + nl + 1;
            const char *ve = eol;
            while (v < ve && (*v == ' ' || *v == '\t')) v++;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t')) ve--;
            *val = v;
            return (size_t)(ve - v);
        }
        p = eol;
    }
    return 0;
}

static int value_has_token(const char *v, size_t n, const char *token) {
    size_t tl = strlen(token);
    for (size_t i = 0; i + tl <= n; i++)
        if (strncasecmp(v + i, token, tl) == 0) return 1;
    return 0;
}

static void http_reply(int fd, const char *status, const char *body, int keep) {
    char buf[512];
    int n = snprintf(buf, sizeof buf,
                     "HTTP/1.1 %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\nConnection: %s\r\n\r\n%s",
                     status, strlen(body), keep ? "keep-alive" : "close", body);
    conn_send(fd, (const uint8_t *)buf, (size_t)n);
    if (!keep) doom(fd);
}

/* Handles one complete request head; returns 1 if the connection became a WebSocket. */
static int handle_request(int fd, const char *head, const char *end) {
    const char *sp1 = memchr(head, ' ', (size_t)(end - head));
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1)) : NULL;
    if (!sp1 || !sp2 || sp1 - head != 3 || memcmp(head, "GET", 3) != 0) {
        http_reply(fd, "400 Bad Request", "bad request\n", 0);
        return 0;
    }
    const char *path = sp1 + 1;
    size_t path_len = (size_t)(sp2 - path);
    const char *v;
    size_t vl = header_value(head, end, "Upgrade", &v);
    int upgrade = vl && value_has_token(v, vl, "websocket");
    if (!upgrade) {
        if (path_len == 8 && memcmp(path, "/healthz", 8) == 0)
            http_reply(fd, "200 OK", "ok\n", 1);
        else
            http_reply(fd, "404 Not Found", "not found\n", 1);
        return 0;
    }
    const char *ver;
    size_t verl = header_value(head, end, "Sec-WebSocket-Version", &ver);
    if (verl != 2 || memcmp(ver, "13", 2) != 0) {
        const char r[] = "HTTP/1.1 426 Upgrade Required\r\nSec-WebSocket-Version: 13\r\nContent-Length: 0\r\n"
                         "Connection: close\r\n\r\n";
        conn_send(fd, (const uint8_t *)r, sizeof r - 1);
        doom(fd);
        return 0;
    }
    const char *key;
    size_t kl = header_value(head, end, "Sec-WebSocket-Key", &key);
    if (kl == 0 || kl > 64) {
        http_reply(fd, "400 Bad Request", "missing Sec-WebSocket-Key\n", 0);
        return 0;
    }
    char cat[64 + sizeof WS_GUID];
    memcpy(cat, key, kl);
    memcpy(cat + kl, WS_GUID, sizeof WS_GUID - 1);
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1((const unsigned char *)cat, kl + sizeof WS_GUID - 1, digest);
    char accept[64];
    EVP_EncodeBlock((unsigned char *)accept, digest, SHA_DIGEST_LENGTH);
    char resp[256];
    int n = snprintf(resp, sizeof resp,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Accept: %s\r\n\r\n",
                     accept);
    conn_send(fd, (const uint8_t *)resp, (size_t)n);
    struct conn *c = &conns[fd];
    c->state = ST_WS;
    c->sub_idx = nsubs;
    subs[nsubs++] = fd;
    return 1;
}

/* Parses as many complete requests or frames as `buf` holds; returns bytes consumed. */
static size_t process(int fd, uint8_t *buf, size_t len) {
    struct conn *c = &conns[fd];
    size_t off = 0;
    while (off < len && !c->doomed) {
        uint8_t *p = buf + off;
        size_t avail = len - off;
        if (c->state == ST_HTTP) {
            uint8_t *e = memmem(p, avail, "\r\n\r\n", 4);
            if (!e) {
                if (avail > HTTP_HEAD_LIMIT) http_reply(fd, "431 Request Header Fields Too Large", "too large\n", 0);
                break;
            }
            handle_request(fd, (const char *)p, (const char *)e + 2);
            off += (size_t)(e + 4 - p);
            continue;
        }
        if (avail < 2) break;
        uint8_t b0 = p[0], b1 = p[1];
        int fin = b0 & 0x80, opcode = b0 & 0x0F;
        if ((b0 & 0x70) || !(b1 & 0x80)) { /* reserved bits, or an unmasked client frame */
            close_with(fd, 1002);
            break;
        }
        size_t hl = 2;
        uint64_t plen = b1 & 0x7F;
        if (plen == 126) {
            if (avail < 4) break;
            plen = ((uint64_t)p[2] << 8) | p[3];
            hl = 4;
        } else if (plen == 127) {
            if (avail < 10) break;
            plen = 0;
            for (int i = 0; i < 8; i++) plen = (plen << 8) | p[2 + i];
            hl = 10;
        }
        if (plen > MAX_PAYLOAD) {
            close_with(fd, 1009);
            break;
        }
        if (avail < hl + 4 + plen) break;
        const uint8_t *mask = p + hl;
        uint8_t *payload = p + hl + 4;
        for (uint64_t i = 0; i < plen; i++) payload[i] ^= mask[i & 3];
        off += hl + 4 + (size_t)plen;
        if (!fin || opcode == 0x0) { /* fragmentation is outside this benchmark's protocol */
            close_with(fd, 1003);
            break;
        }
        switch (opcode) {
        case 0x1: broadcast_text(payload, (size_t)plen); break;
        case 0x2: break; /* binary messages are not part of the protocol: ignored */
        case 0x8: send_control(fd, 0x8, payload, plen >= 2 ? 2 : 0); doom(fd); break;
        case 0x9: send_control(fd, 0xA, payload, (size_t)plen); break;
        case 0xA: break;
        default: close_with(fd, 1002); break;
        }
    }
    return off;
}

static void on_readable(int fd) {
    struct conn *c = &conns[fd];
    size_t have = c->in_len;
    if (have) memcpy(rbuf, c->in, have);
    ssize_t r = recv(fd, rbuf + have, READ_CHUNK, 0);
    if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
        doom(fd);
        return;
    }
    if (r < 0) return;
    size_t len = have + (size_t)r;
    size_t used = process(fd, rbuf, len);
    if (c->state == ST_FREE || c->doomed) return;
    size_t rest = len - used;
    if (rest == 0) {
        free(c->in);
        c->in = NULL;
        c->in_len = c->in_cap = 0;
        return;
    }
    if (rest > c->in_cap) {
        uint8_t *nb = realloc(c->in, rest);
        if (!nb) {
            doom(fd);
            return;
        }
        c->in = nb;
        c->in_cap = (uint32_t)rest;
    }
    memmove(c->in, rbuf + used, rest);
    c->in_len = (uint32_t)rest;
}

static void on_accept(void) {
    for (;;) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED) return;
            if ((errno == EMFILE || errno == ENFILE) && reserve_fd >= 0) {
                /* Out of descriptors: accept-and-close one pending connection with the spare
                 * descriptor so a level-triggered listener does not spin. */
                close(reserve_fd);
                int x = accept(listen_fd, NULL, NULL);
                if (x >= 0) close(x);
                reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
                fprintf(stderr, "broadcast_server: out of file descriptors, connection refused\n");
                return;
            }
            perror("accept4");
            return;
        }
        if (fd >= max_fds) {
            close(fd);
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct conn *c = &conns[fd];
        memset(c, 0, sizeof *c);
        c->state = ST_HTTP;
        c->sub_idx = -1;
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) die("epoll_ctl add");
    }
}

static volatile sig_atomic_t stop;
static void on_signal(int sig) {
    (void)sig;
    stop = 1;
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1";
    int port = 9001, backlog = 4096;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--host") && i + 1 < argc) host = argv[++i];
        else if (!strcmp(argv[i], "--port") && i + 1 < argc) port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--backlog") && i + 1 < argc) backlog = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--host ADDR] [--port N] [--backlog N]\n", argv[0]);
            return 2;
        }
    }
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    max_fds = (int)(rl.rlim_cur > 1048576 ? 1048576 : rl.rlim_cur);
    /* calloc of a large block maps zero pages lazily: only slots actually used cost RSS. */
    conns = calloc((size_t)max_fds, sizeof *conns);
    subs = calloc((size_t)max_fds, sizeof *subs);
    doomed_fds = calloc((size_t)max_fds, sizeof *doomed_fds);
    if (!conns || !subs || !doomed_fds) die("calloc");

    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listen_fd < 0) die("socket");
    int one = 1;
    setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
        fprintf(stderr, "bad host %s\n", host);
        return 2;
    }
    if (bind(listen_fd, (struct sockaddr *)&addr, sizeof addr) < 0) die("bind");
    if (listen(listen_fd, backlog) < 0) die("listen");
    reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) die("epoll_create1");
    struct epoll_event lev = {.events = EPOLLIN, .data.fd = listen_fd};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, listen_fd, &lev) < 0) die("epoll_ctl listen");

    printf("broadcast_server listening on %s:%d (pid %d)\n", host, port, (int)getpid());
    fflush(stdout);

    static struct epoll_event evs[1024];
    while (!stop) {
        int n = epoll_wait(epfd, evs, 1024, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("epoll_wait");
        }
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            if (fd == listen_fd) {
                on_accept();
                continue;
            }
            if (conns[fd].state == ST_FREE || conns[fd].doomed) continue;
            uint32_t e = evs[i].events;
            if (e & EPOLLOUT) flush_out(fd);
            if ((e & (EPOLLIN | EPOLLHUP | EPOLLERR)) && !conns[fd].doomed) on_readable(fd);
        }
        reap_doomed();
    }
    return 0;
}
