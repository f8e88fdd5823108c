/*
 * loadgen.c — epoll WebSocket load generator for the broadcast, Pusher fan-out and idle-capacity
 * benchmarks.
 *
 * Speaks the benchmark protocol of Benchmarks/README.md to any server: opens N WebSocket
 * clients from source addresses 127.0.0.2, 127.0.0.3, ... (bind before connect), checks
 * each handshake (Sec-WebSocket-Accept via libcrypto SHA-1), then
 *
 *   --mode broadcast  one of the clients publishes 64-byte text messages at a fixed
 *                     open-loop rate; every client reads and parses frames and records
 *                     the delay from the message's scheduled send time (CLOCK_MONOTONIC,
 *                     carried in the message) to its arrival. Trials report deliveries/s,
 *                     latency percentiles, the server's CPU time (from /proc/PID/stat) and
 *                     so deliveries per server CPU-second, and the load generator's own
 *                     CPU. --search ramps the rate to find saturation; --half then runs at
 *                     50% of it; --fixed-rate R runs at a given rate.
 *   --mode pusher     Pusher Channels (protocol 7) fan-out: the clients are
 *                     subscribers that connect to /app/KEY?protocol=7, wait for
 *                     connection_established, subscribe to a public channel (bench-0 ..
 *                     bench-(C-1), spread evenly) and wait for subscription_succeeded; an extra
 *                     publisher process sends signed HTTP POST /apps/ID/events requests
 *                     (keep-alive, several connections, pipelined if needed; body MD5 and
 *                     HMAC-SHA256 from libcrypto) at a fixed open-loop rate, round-robin over
 *                     the channels, each event's data being the 64-byte benchmark message with
 *                     its scheduled send time. Subscribers pull the time out of the delivered
 *                     event's JSON: the latency is trigger-to-delivery. Trials, the search and
 *                     the figures are those of broadcast mode; --fractions runs at fixed
 *                     fractions of the saturation rate.
 *   --mode idle       opens idle connections in steps and reports the server's RSS per
 *                     connection, then closes them, runs connect/handshake/close cycles and
 *                     reports the RSS after.
 *
 * Work is done by --procs worker processes (forked; default: enough to keep each under
 * 15,000 descriptors) that share their counters and histograms with the controlling
 * parent through an anonymous shared mapping. Everything is bounded by timeouts.
 *
 *   cc -O2 -o loadgen loadgen.c -lcrypto -lm
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG_LEN 64
#define MAX_WORKERS 16
#define MAX_TRIALS 48
#define MAX_STEPS 16
#define HN 2560 /* histogram buckets (see hidx) */
#define SUB_BITS 7
#define RBUF (256 * 1024)
#define HS_LIMIT 8192
#define PUB_QUEUE_LIMIT (256u * 1024 * 1024)
#define MAX_CHANNELS 10000
#define MAX_FRACTIONS 8
#define MAX_PUB_CONNS 64
#define BENCH_EVENT "bench"

/* ---------- time, histogram ---------- */

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns) {
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull), .tv_nsec = (long)(ns % 1000000000ull)};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {}
}

/* Log-linear buckets: exact below 128 ns, then 64 sub-buckets per power of two (<1.6% error). */
static int hidx(uint64_t v) {
    if (v < (1u << SUB_BITS)) return (int)v;
    int msb = 63 - __builtin_clzll(v);
    int shift = msb - (SUB_BITS - 1);
    int i = shift * (1 << (SUB_BITS - 1)) + (int)(v >> shift);
    return i < HN ? i : HN - 1;
}

/* Upper edge of bucket i (what a percentile reports: "at most this"). */
static uint64_t hvalue(int i) {
    if (i < (1 << SUB_BITS)) return (uint64_t)i;
    int shift = i / (1 << (SUB_BITS - 1)) - 1;
    uint64_t m = (uint64_t)(i - shift * (1 << (SUB_BITS - 1)));
    return ((m + 1) << shift) - 1;
}

static uint64_t hpercentile(const uint64_t *h, uint64_t total, double q) {
    if (total == 0) return 0;
    uint64_t want = (uint64_t)ceil(q * (double)total);
    if (want == 0) want = 1;
    uint64_t acc = 0;
    for (int i = 0; i < HN; i++) {
        acc += h[i];
        if (acc >= want) return hvalue(i);
    }
    return hvalue(HN - 1);
}

/* ---------- shared state between the controller and the workers ---------- */

enum { CMD_NONE, CMD_CONNECT, CMD_TRIAL, CMD_COLLECT, CMD_CLOSE_ALL, CMD_CYCLES, CMD_EXIT };

struct trial_spec {
    double rate;
    uint64_t start_ns, seq_base, nmsgs;
};

struct wtrial {
    uint64_t deliveries, last_ns;
    uint64_t hist[HN];
};

struct wshared {
    uint64_t acked_epoch;
    uint64_t target; /* connections (CMD_CONNECT) or cycles (CMD_CYCLES) for this worker */
    uint64_t open, cycles_done;
    uint64_t connect_errors, handshake_errors, closed_by_peer, protocol_errors, late, bad_payload;
    uint64_t pub_sent, pub_lag_max_ns, pub_queue_max;
    /* pusher mode: subscriptions per channel (subscribers), requests and answers (publisher) */
    uint64_t pusher_errors, wrong_channel, pub_answers, pub_failed, pub_lost, pub_pipelined_max;
    uint32_t chan_subs[MAX_CHANNELS];
    int pid;
    struct wtrial t[MAX_TRIALS];
};

struct shared {
    uint64_t epoch;
    int cmd;
    int trial;
    struct trial_spec trials[MAX_TRIALS];
    struct wshared w[MAX_WORKERS];
};

static struct shared *S;

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#define BUMP(x) __atomic_store_n(&(x), (x) + 1, __ATOMIC_RELAXED) /* single writer */

/* ---------- options ---------- */

enum { MODE_BROADCAST, MODE_IDLE, MODE_PUSHER };

static struct {
    const char *host;
    int port;
    int mode;
    int clients;
    int procs; /* subscriber/client worker processes */
    int nw;    /* all worker processes: procs, plus the publisher in pusher mode */
    const char *app_id, *app_key, *app_secret;
    int channels;
    int pub_conns;
    double fractions[MAX_FRACTIONS];
    int nfractions;
    uint32_t src_base; /* host order */
    int src_count;
    int concurrency;
    int server_pid;
    int sub_ports[8]; /* --sub-ports: subscribers spread over these (default: --port) */
    int nsub_ports;
    int extra_pids[8]; /* --extra-pids: more server processes (other nodes, Redis) counted as the server's CPU */
    int nextra_pids;
    int redis_pid; /* --redis-pid: its CPU is also reported on its own, per delivery */
    int search;
    double start_rate;
    double ramp;
    int bisect;
    double trial_secs;
    int half;
    double half_secs;
    double fixed_rate;
    double fixed_secs;
    double warmup_secs;
    double drain_secs;
    double connect_timeout;
    double max_secs;
    int steps[MAX_STEPS];
    int nsteps;
    int cycles;
    double settle_secs;
    const char *label;
    int retries;
    double retry_wait, quiet_max;
    int warm;
    double knee_factor, knee_slack_ms; /* search: p99 may grow to factor x the lowest earlier one + slack */
} O = {
    .warm = 100,
    .knee_factor = 2, .knee_slack_ms = 20,
    .retries = 2, .retry_wait = 1, .quiet_max = 60,
    .host = "127.0.0.1", .port = 9001, .clients = 10000, .src_base = 0x7F000002, .src_count = 16,
    .concurrency = 256, .start_rate = 0, .ramp = 1.5, .bisect = 3, .trial_secs = 4, .half_secs = 10,
    .fixed_secs = 10, .warmup_secs = 2, .drain_secs = 30, .connect_timeout = 120, .max_secs = 900,
    .cycles = 100000, .settle_secs = 2, .label = "server",
    .app_id = "1", .app_key = "bench-key", .app_secret = "bench-secret", .channels = 1, .pub_conns = 8,
};

/* ---------- worker ---------- */

/* C_ESTABLISHING and C_SUBSCRIBING: a Pusher subscriber whose WebSocket is open but that waits for
 * connection_established or subscription_succeeded; it counts as in flight until subscribed. */
enum { C_FREE, C_CONNECTING, C_HANDSHAKE, C_ESTABLISHING, C_SUBSCRIBING, C_OPEN, C_CLOSING };

struct client {
    int fd;
    uint8_t state, cycling, is_pub, want_out;
    uint8_t http;         /* a publisher's HTTP connection (pusher mode) */
    uint32_t chan;        /* the channel a Pusher subscriber is on */
    uint32_t outstanding; /* HTTP requests sent and not yet answered */
    char key[25];
    uint8_t *in;
    uint32_t in_len, in_cap;
    uint8_t *out;
    uint32_t out_off, out_len, out_cap;
};

static int W; /* this worker's index */
static struct wshared *ME;
static struct client *cl;
static uint32_t *free_slots;
static int nfree, nslots;
static int ep, tfd = -1;
static uint32_t next_src;
static uint32_t next_port;
static int inflight; /* connecting or handshaking */
static int closing;  /* close frame sent, waiting for the peer */
static int pub_slot = -1;
static int cur_trial = -1, closed_upto = 0;
static uint64_t pub_next;
static uint8_t rbuf[RBUF + HS_LIMIT + 64];
static uint8_t rnd[4096];
static size_t rnd_off = sizeof rnd;
static char ws_request_tail[160];
static char ws_path[300] = "/";
static uint32_t next_chan; /* pusher: channel assignment counter of this worker */

static int in_flight_state(uint8_t st) {
    return st == C_CONNECTING || st == C_HANDSHAKE || st == C_ESTABLISHING || st == C_SUBSCRIBING;
}

/* The worker that publishes: client 0 of worker 0 (broadcast), the extra worker (pusher). */
static void pub_closed(int slot);

static int is_publisher_worker(void) { return O.mode == MODE_PUSHER ? W == O.procs : W == 0; }

#define TIMER_TOKEN UINT64_MAX

static void wdie(const char *what) {
    fprintf(stderr, "loadgen worker %d: %s: %s\n", W, what, strerror(errno));
    _exit(3);
}

static void random_bytes(uint8_t *p, size_t n) {
    if (rnd_off + n > sizeof rnd) {
        if (RAND_bytes(rnd, sizeof rnd) != 1) wdie("RAND_bytes");
        rnd_off = 0;
    }
    memcpy(p, rnd + rnd_off, n);
    rnd_off += n;
}

static void ep_mod(int slot, int with_out) {
    struct client *c = &cl[slot];
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLET | (with_out ? EPOLLOUT : 0), .data.u64 = (uint64_t)slot};
    if (epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev) < 0) wdie("epoll_ctl mod");
    c->want_out = (uint8_t)with_out;
}

static void release(int slot) {
    struct client *c = &cl[slot];
    if (c->state == C_OPEN) {
        STORE(ME->open, ME->open - 1);
        if (O.mode == MODE_PUSHER && !c->http) STORE(ME->chan_subs[c->chan], ME->chan_subs[c->chan] - 1);
        if (c->http && c->outstanding) STORE(ME->pub_lost, ME->pub_lost + c->outstanding);
    }
    if (in_flight_state(c->state)) inflight--;
    if (c->state == C_CLOSING) closing--;
    if (c->state == C_OPEN || c->state == C_CLOSING) {
        if (c->cycling) STORE(ME->cycles_done, ME->cycles_done + 1);
    }
    if (slot == pub_slot) pub_slot = -1;
    if (c->http) pub_closed(slot);
    close(c->fd);
    free(c->in);
    free(c->out);
    memset(c, 0, sizeof *c);
    c->fd = -1;
    free_slots[nfree++] = (uint32_t)slot;
}

static int queue_out(struct client *c, const uint8_t *p, size_t n) {
    size_t pending = c->out_len - c->out_off;
    if (pending + n > PUB_QUEUE_LIMIT) return -1;
    if (c->out_off && c->out_len + n > c->out_cap) {
        memmove(c->out, c->out + c->out_off, pending);
        c->out_len = (uint32_t)pending;
        c->out_off = 0;
    }
    if (c->out_len + n > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        while (cap < c->out_len + n) cap *= 2;
        uint8_t *nb = realloc(c->out, cap);
        if (!nb) return -1;
        c->out = nb;
        c->out_cap = (uint32_t)cap;
    }
    memcpy(c->out + c->out_len, p, n);
    c->out_len += (uint32_t)n;
    if (pending + n > ME->pub_queue_max) ME->pub_queue_max = pending + n;
    return 0;
}

/* Sends now if nothing is queued, queues the rest; returns -1 if the connection failed. */
static int csend(int slot, const uint8_t *p, size_t n) {
    struct client *c = &cl[slot];
    if (c->out_len == c->out_off) {
        ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w == (ssize_t)n) return 0;
        if (w < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
            w = 0;
        }
        p += w;
        n -= (size_t)w;
    }
    if (queue_out(c, p, n) < 0) return -1;
    if (!c->want_out) ep_mod(slot, 1);
    return 0;
}

static int flush(int slot) {
    struct client *c = &cl[slot];
    while (c->out_off < c->out_len) {
        ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            return -1;
        }
        c->out_off += (uint32_t)w;
    }
    c->out_off = c->out_len = 0;
    ep_mod(slot, 0);
    return 0;
}

/* Builds a masked client frame (RFC 6455 §5.3: fresh 4-byte key per frame). */
static size_t client_frame(uint8_t *f, uint8_t opcode, const uint8_t *payload, size_t len) {
    size_t hl;
    f[0] = (uint8_t)(0x80 | opcode);
    if (len < 126) {
        f[1] = (uint8_t)(0x80 | len);
        hl = 2;
    } else {
        f[1] = 0x80 | 126;
        f[2] = (uint8_t)(len >> 8);
        f[3] = (uint8_t)len;
        hl = 4;
    }
    uint8_t *mask = f + hl;
    random_bytes(mask, 4);
    for (size_t i = 0; i < len; i++) f[hl + 4 + i] = payload[i] ^ mask[i & 3];
    return hl + 4 + len;
}

static void send_close(int slot, uint16_t code) {
    uint8_t p[2] = {(uint8_t)(code >> 8), (uint8_t)code}, f[16];
    size_t n = client_frame(f, 0x8, p, 2);
    struct client *c = &cl[slot];
    if (c->state == C_OPEN) {
        STORE(ME->open, ME->open - 1);
        if (O.mode == MODE_PUSHER) STORE(ME->chan_subs[c->chan], ME->chan_subs[c->chan] - 1);
    }
    c->state = C_CLOSING;
    closing++;
    if (csend(slot, f, n) < 0) release(slot);
}

static void base64(const uint8_t *in, int n, char *out) { EVP_EncodeBlock((unsigned char *)out, in, n); }

static void start_connect(void) {
    if (nfree == 0) return;
    int slot = (int)free_slots[--nfree];
    struct client *c = &cl[slot];
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        free_slots[nfree++] = (uint32_t)slot;
        BUMP(ME->connect_errors);
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    uint32_t src = O.src_base + (next_src++ * (uint32_t)O.procs + (uint32_t)W) % (uint32_t)O.src_count;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(src)};
    int port = O.nsub_ports > 0 ? O.sub_ports[next_port++ % (uint32_t)O.nsub_ports] : O.port;
    struct sockaddr_in da = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, O.host, &da.sin_addr);
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        (connect(fd, (struct sockaddr *)&da, sizeof da) < 0 && errno != EINPROGRESS)) {
        close(fd);
        free_slots[nfree++] = (uint32_t)slot;
        BUMP(ME->connect_errors);
        return;
    }
    memset(c, 0, sizeof *c);
    c->fd = fd;
    c->state = C_CONNECTING;
    c->cycling = (uint8_t)(S->cmd == CMD_CYCLES);
    inflight++;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, .data.u64 = (uint64_t)slot};
    c->want_out = 1;
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) wdie("epoll_ctl add");
}

static void send_handshake(int slot) {
    struct client *c = &cl[slot];
    uint8_t raw[16];
    random_bytes(raw, 16);
    base64(raw, 16, c->key);
    char req[1024];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nSec-WebSocket-Key: %s\r\n%s", ws_path, c->key, ws_request_tail);
    c->state = C_HANDSHAKE;
    if (csend(slot, (const uint8_t *)req, (size_t)n) < 0) {
        BUMP(ME->connect_errors);
        release(slot);
    }
}

static int check_accept(struct client *c, const char *head, size_t len) {
    if (len < 12 || memcmp(head, "HTTP/1.1 101", 12) != 0) return 0;
    static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    char cat[64];
    memcpy(cat, c->key, 24);
    memcpy(cat + 24, guid, sizeof guid - 1);
    unsigned char d[SHA_DIGEST_LENGTH];
    SHA1((unsigned char *)cat, 24 + sizeof guid - 1, d);
    char want[32];
    base64(d, SHA_DIGEST_LENGTH, want);
    const char *name = "\nsec-websocket-accept:";
    size_t nl = strlen(name);
    for (size_t i = 0; i + nl < len; i++) {
        if (strncasecmp(head + i, name, nl) == 0) {
            const char *v = head + i + nl;
            while (*v == ' ' || *v == '\t') v++;
            return strncmp(v, want, 28) == 0;
        }
    }
    return 0;
}

static uint64_t parse_digits(const uint8_t *p, int n, int *ok) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            *ok = 0;
            return 0;
        }
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    return v;
}

static int trial_of(uint64_t seq) {
    for (int i = cur_trial; i >= closed_upto && i >= 0; i--) {
        const struct trial_spec *t = &S->trials[i];
        if (seq >= t->seq_base && seq < t->seq_base + t->nmsgs) return i;
    }
    return -1;
}

/* Records one delivery to a client of the benchmark message at p (time, ' ', sequence number). */
static void record(int slot, const uint8_t *p, uint64_t len, uint64_t now) {
    int ok = 1;
    if (len < 31) ok = 0;
    uint64_t ts = ok ? parse_digits(p, 20, &ok) : 0;
    uint64_t seq = ok ? parse_digits(p + 21, 10, &ok) : 0;
    if (!ok) {
        BUMP(ME->bad_payload);
        return;
    }
    int ti = trial_of(seq);
    if (ti < 0) {
        BUMP(ME->late);
        return;
    }
    if (O.mode == MODE_PUSHER && seq % (uint64_t)O.channels != cl[slot].chan) {
        BUMP(ME->wrong_channel); /* published on another channel than this subscriber's */
        return;
    }
    struct wtrial *t = &ME->t[ti];
    t->hist[hidx(now > ts ? now - ts : 0)]++;
    t->last_ns = now;
    BUMP(t->deliveries);
}

/* ---------- Pusher subscriber ---------- */

/* The string value of "key" in a flat JSON object (no escapes inside the value), or NULL. */
static const uint8_t *json_string(const uint8_t *p, size_t len, const char *key, size_t *vlen) {
    char pat[40];
    int pl = snprintf(pat, sizeof pat, "\"%s\"", key);
    const uint8_t *end = p + len, *k = p;
    while ((k = memmem(k, (size_t)(end - k), pat, (size_t)pl))) {
        const uint8_t *v = k + pl;
        while (v < end && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')) v++;
        if (v < end && *v == ':') {
            v++;
            while (v < end && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')) v++;
            if (v >= end || *v != '"') return NULL;
            v++;
            const uint8_t *q = memchr(v, '"', (size_t)(end - v));
            if (!q) return NULL;
            *vlen = (size_t)(q - v);
            return v;
        }
        k += pl;
    }
    return NULL;
}

static int name_is(const uint8_t *v, size_t n, const char *name) { return v && n == strlen(name) && !memcmp(v, name, n); }

/* Sends a text message; returns -1 if the slot was released. */
static int send_text(int slot, const char *msg, size_t n) {
    uint8_t f[512];
    size_t fl = client_frame(f, 0x1, (const uint8_t *)msg, n);
    if (csend(slot, f, fl) < 0) {
        release(slot);
        return -1;
    }
    return 0;
}

static void subscribed(int slot) {
    struct client *c = &cl[slot];
    inflight--;
    c->state = C_OPEN;
    STORE(ME->chan_subs[c->chan], ME->chan_subs[c->chan] + 1);
    STORE(ME->open, ME->open + 1);
}

/* One text message from the server to a Pusher subscriber; returns -1 if the slot was released. */
static int pusher_text(int slot, const uint8_t *p, size_t len, uint64_t now) {
    struct client *c = &cl[slot];
    size_t en = 0;
    const uint8_t *ev = json_string(p, len, "event", &en);
    if (name_is(ev, en, BENCH_EVENT)) {
        size_t dn = 0;
        const uint8_t *d = json_string(p, len, "data", &dn);
        if (!d || c->state != C_OPEN) {
            BUMP(ME->bad_payload);
            return 0;
        }
        record(slot, d, dn, now);
        return 0;
    }
    if (name_is(ev, en, "pusher:connection_established") && c->state == C_ESTABLISHING) {
        c->chan = (uint32_t)((W + (uint64_t)O.procs * next_chan++) % (uint64_t)O.channels);
        char msg[128];
        int n = snprintf(msg, sizeof msg, "{\"event\":\"pusher:subscribe\",\"data\":{\"auth\":\"\",\"channel\":\"bench-%u\"}}",
                         c->chan);
        if (send_text(slot, msg, (size_t)n) < 0) return -1;
        c->state = C_SUBSCRIBING;
        return 0;
    }
    if (name_is(ev, en, "pusher_internal:subscription_succeeded") && c->state == C_SUBSCRIBING) {
        subscribed(slot);
        return 0;
    }
    if (name_is(ev, en, "pusher:ping")) {
        static const char pong[] = "{\"event\":\"pusher:pong\",\"data\":{}}";
        return send_text(slot, pong, sizeof pong - 1);
    }
    if (name_is(ev, en, "pusher:error") || name_is(ev, en, "pusher:subscription_error")) {
        if (ME->pusher_errors == 0)
            fprintf(stderr, "loadgen worker %d: the server sent %.*s\n", W, (int)(len > 300 ? 300 : len), (const char *)p);
        BUMP(ME->pusher_errors);
        if (c->state == C_ESTABLISHING || c->state == C_SUBSCRIBING) { /* no subscription: try again */
            BUMP(ME->handshake_errors);
            release(slot);
            return -1;
        }
    }
    return 0; /* other events (pong, subscription_count, ...) are not part of the benchmark */
}

/* Parses server frames; returns bytes consumed, or -1 if the slot was released. */
static long frames(int slot, uint8_t *p, size_t len, uint64_t now) {
    size_t off = 0;
    while (len - off >= 2) {
        uint8_t b0 = p[off], b1 = p[off + 1];
        if (b1 & 0x80) { /* servers must not mask */
            BUMP(ME->protocol_errors);
            release(slot);
            return -1;
        }
        size_t hl = 2;
        uint64_t plen = b1 & 0x7F;
        if (plen == 126) {
            if (len - off < 4) break;
            plen = ((uint64_t)p[off + 2] << 8) | p[off + 3];
            hl = 4;
        } else if (plen == 127) {
            if (len - off < 10) break;
            plen = 0;
            for (int i = 0; i < 8; i++) plen = (plen << 8) | p[off + 2 + i];
            hl = 10;
            if (plen > (1u << 24)) {
                BUMP(ME->protocol_errors);
                release(slot);
                return -1;
            }
        }
        if (len - off < hl + plen) break;
        const uint8_t *pl = p + off + hl;
        off += hl + (size_t)plen;
        switch (b0 & 0x0F) {
        case 0x1:
            if (!(b0 & 0x80)) break;
            if (O.mode != MODE_PUSHER) record(slot, pl, plen, now);
            else if (pusher_text(slot, pl, (size_t)plen, now) < 0) return -1;
            break;
        case 0x8: {
            struct client *c = &cl[slot];
            if (c->state == C_OPEN) {
                BUMP(ME->closed_by_peer);
                uint8_t f[16];
                uint8_t code[2] = {0x03, 0xE8};
                size_t n = client_frame(f, 0x8, code, 2);
                send(c->fd, f, n, MSG_NOSIGNAL | MSG_DONTWAIT);
            }
            release(slot);
            return -1;
        }
        case 0x9: {
            uint8_t f[160];
            size_t n = client_frame(f, 0xA, pl, plen > 125 ? 125 : (size_t)plen);
            if (csend(slot, f, n) < 0) {
                release(slot);
                return -1;
            }
            break;
        }
        default: break;
        }
    }
    return (long)off;
}

static void became_open(int slot) {
    struct client *c = &cl[slot];
    if (O.mode == MODE_PUSHER) { /* still in flight until subscribed */
        c->state = C_ESTABLISHING;
        return;
    }
    inflight--;
    if (c->cycling) { /* a connect/disconnect cycle: close as soon as the handshake is done */
        send_close(slot, 1000);
        return;
    }
    c->state = C_OPEN;
    STORE(ME->open, ME->open + 1);
    if (is_publisher_worker() && pub_slot < 0) {
        pub_slot = slot;
        c->is_pub = 1;
    }
}

/* ---------- Pusher publisher: signed HTTP API requests ---------- */

static int pubs[MAX_PUB_CONNS]; /* the publisher's open HTTP connections (slots) */
static int npubs;
static uint32_t pub_rr;
static char events_path[160];

static void pub_opened(int slot) {
    if (npubs < MAX_PUB_CONNS) pubs[npubs++] = slot;
}

static void pub_closed(int slot) {
    for (int i = 0; i < npubs; i++)
        if (pubs[i] == slot) {
            pubs[i] = pubs[--npubs];
            return;
        }
}

/* The value of header NAME (case-insensitive) in an HTTP head, or NULL. */
static const uint8_t *header_value(const uint8_t *head, size_t hl, const char *name, size_t *vlen) {
    size_t nl = strlen(name);
    for (const uint8_t *l = memmem(head, hl, "\r\n", 2); l && (size_t)(l - head) + 2 + nl < hl;
         l = memmem(l + 2, hl - (size_t)(l + 2 - head), "\r\n", 2)) {
        const uint8_t *k = l + 2;
        if (strncasecmp((const char *)k, name, nl) || k[nl] != ':') continue;
        const uint8_t *v = k + nl + 1, *end = memmem(v, hl - (size_t)(v - head), "\r\n", 2);
        if (!end) return NULL;
        while (v < end && (*v == ' ' || *v == '\t')) v++;
        *vlen = (size_t)(end - v);
        return v;
    }
    return NULL;
}

static void answered(struct client *c, int status, const uint8_t *msg, size_t n) {
    if (c->outstanding) c->outstanding--;
    BUMP(ME->pub_answers);
    if (status == 200) return;
    if (ME->pub_failed == 0)
        fprintf(stderr, "loadgen publisher: the server answered %.*s\n", (int)(n > 400 ? 400 : n), (const char *)msg);
    BUMP(ME->pub_failed);
}

/* Parses HTTP answers on a publisher connection; returns bytes consumed, or -1 if released. */
static long http_answers(int slot, const uint8_t *p, size_t len) {
    struct client *c = &cl[slot];
    size_t off = 0;
    while (off < len) {
        const uint8_t *b = p + off;
        size_t avail = len - off, vl = 0, total;
        const uint8_t *e = memmem(b, avail, "\r\n\r\n", 4);
        if (!e) {
            if (avail > HS_LIMIT) goto broken;
            break;
        }
        size_t hl = (size_t)(e + 4 - b);
        if (hl < 12 || memcmp(b, "HTTP/1.", 7) != 0) goto broken;
        int status = (b[9] - '0') * 100 + (b[10] - '0') * 10 + (b[11] - '0');
        const uint8_t *te = header_value(b, hl, "transfer-encoding", &vl);
        if (te && memmem(te, vl, "chunked", 7)) {
            size_t q = hl;
            for (;;) {
                const uint8_t *nl = memmem(b + q, avail - q, "\r\n", 2);
                if (!nl) return (long)off;
                size_t sz = strtoul((const char *)b + q, NULL, 16);
                q = (size_t)(nl + 2 - b);
                if (sz == 0) { /* no trailers: the last chunk is followed by an empty line */
                    if (avail - q < 2) return (long)off;
                    q += 2;
                    break;
                }
                if (sz > RBUF) goto broken;
                if (avail - q < sz + 2) return (long)off;
                q += sz + 2;
            }
            total = q;
        } else {
            const uint8_t *cv = header_value(b, hl, "content-length", &vl);
            size_t clen = cv ? strtoul((const char *)cv, NULL, 10) : 0;
            if (clen > RBUF) goto broken;
            if (avail < hl + clen) break;
            total = hl + clen;
        }
        answered(c, status, b, total);
        off += total;
    }
    return (long)off;
broken:
    BUMP(ME->protocol_errors);
    release(slot);
    return -1;
}

static void hex(const unsigned char *d, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = 0;
}

/* The 64-byte benchmark message: scheduled send time, sequence number, '.' padding. */
static void bench_message(char msg[MSG_LEN + 1], uint64_t due, uint64_t seq) {
    int n = snprintf(msg, MSG_LEN + 1, "%020llu %010llu ", (unsigned long long)due, (unsigned long long)seq);
    memset(msg + n, '.', MSG_LEN - (size_t)n);
    msg[MSG_LEN] = 0;
}

/* A signed POST /apps/ID/events request (spec section 7) for one event on channel seq % C. */
static size_t event_request(char *out, size_t cap, uint64_t due, uint64_t seq) {
    char msg[MSG_LEN + 1], body[256], query[256], to_sign[512], md5hex[33], sighex[65];
    bench_message(msg, due, seq);
    int bl = snprintf(body, sizeof body, "{\"name\":\"" BENCH_EVENT "\",\"channel\":\"bench-%llu\",\"data\":\"%s\"}",
                      (unsigned long long)(seq % (uint64_t)O.channels), msg);
    unsigned char md[EVP_MAX_MD_SIZE], sig[EVP_MAX_MD_SIZE];
    unsigned int mdl = 0, sl = 0;
    if (EVP_Digest(body, (size_t)bl, md, &mdl, EVP_md5(), NULL) != 1) wdie("EVP_Digest(md5)");
    hex(md, mdl, md5hex);
    int ql = snprintf(query, sizeof query, "auth_key=%s&auth_timestamp=%lld&auth_version=1.0&body_md5=%s", O.app_key,
                      (long long)time(NULL), md5hex);
    int tl = snprintf(to_sign, sizeof to_sign, "POST\n%s\n%.*s", events_path, ql, query);
    if (!HMAC(EVP_sha256(), O.app_secret, (int)strlen(O.app_secret), (const unsigned char *)to_sign, (size_t)tl, sig, &sl))
        wdie("HMAC");
    hex(sig, sl, sighex);
    int n = snprintf(out, cap,
                     "POST %s?%s&auth_signature=%s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
                     "Content-Length: %d\r\n\r\n%s",
                     events_path, query, sighex, O.host, O.port, bl, body);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

/* The open publisher connection with the fewest unanswered requests (round-robin among equals). */
static int pub_pick(void) {
    int best = -1;
    uint32_t least = UINT32_MAX;
    for (int k = 0; k < npubs; k++) {
        int i = pubs[(pub_rr + (uint32_t)k) % (uint32_t)npubs];
        if (cl[i].outstanding < least) {
            least = cl[i].outstanding;
            best = i;
        }
    }
    pub_rr++;
    return best;
}

/* Sockets are edge-triggered: an event is not repeated while data stays unread, so on_read
 * sets read_again when the socket may hold more — its recv filled the room it had, the peer
 * has hung up (the end of stream still has to be read: data and FIN can come in one event),
 * or the call was interrupted. The dispatcher sets peer_hung_up from the event. */
static int read_again;
static int peer_hung_up;

static void on_read(int slot) {
    struct client *c = &cl[slot];
    size_t have = c->in_len;
    if (have >= sizeof rbuf) { /* a carried-over partial frame never gets this long */
        BUMP(ME->protocol_errors);
        release(slot);
        return;
    }
    if (have) memcpy(rbuf, c->in, have);
    size_t room = sizeof rbuf - have;
    ssize_t r = recv(c->fd, rbuf + have, room, 0);
    read_again = (r > 0 && ((size_t)r == room || peer_hung_up)) || (r < 0 && errno == EINTR);
    if (r <= 0) {
        if (r < 0 && (errno == EAGAIN || errno == EINTR)) return;
        if (c->state == C_OPEN) BUMP(ME->closed_by_peer);
        if (in_flight_state(c->state)) BUMP(ME->handshake_errors);
        release(slot);
        return;
    }
    uint64_t now = now_ns();
    size_t len = have + (size_t)r;
    size_t used = 0;
    if (c->http) {
        long n = http_answers(slot, rbuf, len);
        if (n < 0) return;
        used = (size_t)n;
        goto stash;
    }
    if (c->state == C_HANDSHAKE) {
        uint8_t *e = memmem(rbuf, len, "\r\n\r\n", 4);
        if (!e) {
            if (len > HS_LIMIT) {
                BUMP(ME->handshake_errors);
                release(slot);
                return;
            }
            goto stash;
        }
        if (!check_accept(c, (const char *)rbuf, (size_t)(e - rbuf) + 2)) {
            BUMP(ME->handshake_errors);
            release(slot);
            return;
        }
        used = (size_t)(e + 4 - rbuf);
        became_open(slot);
        if (c->state == C_FREE) return;
    }
    long n = frames(slot, rbuf + used, len - used, now);
    if (n < 0) return;
    used += (size_t)n;
stash:
    if (used == len) {
        c->in_len = 0;
        return;
    }
    size_t rest = len - used;
    if (rest > c->in_cap) {
        uint8_t *nb = realloc(c->in, rest < 128 ? 128 : rest);
        if (!nb) wdie("realloc");
        c->in = nb;
        c->in_cap = (uint32_t)(rest < 128 ? 128 : rest);
    }
    memmove(c->in, rbuf + used, rest);
    c->in_len = (uint32_t)rest;
}

static void on_writable(int slot) {
    struct client *c = &cl[slot];
    if (c->state == C_CONNECTING) {
        int err = 0;
        socklen_t l = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
        if (err) {
            BUMP(ME->connect_errors);
            release(slot);
            return;
        }
        ep_mod(slot, 0);
        if (O.mode == MODE_PUSHER && is_publisher_worker()) { /* plain HTTP keep-alive connection */
            inflight--;
            c->http = 1;
            c->state = C_OPEN;
            STORE(ME->open, ME->open + 1);
            pub_opened(slot);
            return;
        }
        send_handshake(slot);
        return;
    }
    if (flush(slot) < 0) {
        if (c->state == C_OPEN) BUMP(ME->closed_by_peer);
        release(slot);
    }
}

static uint64_t sched_ns(const struct trial_spec *t, uint64_t k) {
    return t->start_ns + (uint64_t)((double)k * 1e9 / t->rate);
}

static void arm_timer(uint64_t at) {
    struct itimerspec its = {0};
    its.it_value.tv_sec = (time_t)(at / 1000000000ull);
    its.it_value.tv_nsec = (long)(at % 1000000000ull);
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void start_connect(void);

/* Pusher publisher tick: every event that is due goes out as one HTTP request, requests to the
 * same connection in one send; a connection the server closed is replaced. */
static void publish_due_events(const struct trial_spec *t) {
    static uint8_t stage[MAX_PUB_CONNS][16 * 1024];
    static size_t stage_len[MAX_PUB_CONNS];
    static int stage_slot[MAX_PUB_CONNS];
    while (npubs + inflight < O.pub_conns && nfree > 0) {
        int before = inflight;
        start_connect();
        if (inflight == before) break;
    }
    if (npubs == 0) { /* nothing to send on yet: the events wait, and their lateness counts */
        arm_timer(now_ns() + 10000000ull);
        return;
    }
    for (int i = 0; i < npubs; i++) {
        stage_len[i] = 0;
        stage_slot[i] = pubs[i];
    }
    uint64_t now = now_ns();
    int first = 1, batch = 0;
    while (pub_next < t->nmsgs && sched_ns(t, pub_next) <= now && batch < 512) {
        uint64_t due = sched_ns(t, pub_next);
        if (first) {
            if (now - due > ME->pub_lag_max_ns) ME->pub_lag_max_ns = now - due;
            first = 0;
        }
        int slot = pub_pick(), k = 0;
        while (stage_slot[k] != slot) k++;
        if (stage_len[k] + 1024 > sizeof stage[k]) break;
        size_t n = event_request((char *)stage[k] + stage_len[k], sizeof stage[k] - stage_len[k], due,
                                 t->seq_base + pub_next);
        if (n == 0) wdie("request too long");
        stage_len[k] += n;
        cl[slot].outstanding++;
        if (cl[slot].outstanding > ME->pub_pipelined_max) STORE(ME->pub_pipelined_max, cl[slot].outstanding);
        pub_next++;
        batch++;
    }
    int nstaged = npubs;
    for (int k = 0; k < nstaged; k++) {
        if (!stage_len[k]) continue;
        int slot = stage_slot[k];
        if (csend(slot, stage[k], stage_len[k]) < 0) {
            BUMP(ME->closed_by_peer);
            release(slot);
        }
    }
    STORE(ME->pub_sent, ME->pub_sent + (uint64_t)batch);
    if (pub_next < t->nmsgs) arm_timer(sched_ns(t, pub_next));
}

static void on_timer(void) {
    uint64_t x;
    if (read(tfd, &x, sizeof x) < 0 && errno != EAGAIN) wdie("timerfd read");
    if (cur_trial < 0) return;
    const struct trial_spec *t = &S->trials[cur_trial];
    if (pub_next >= t->nmsgs) return;
    if (O.mode == MODE_PUSHER) {
        publish_due_events(t);
        return;
    }
    uint64_t now = now_ns();
    static uint8_t batch[64 * 1024];
    size_t bl = 0;
    int first = 1;
    while (pub_next < t->nmsgs && sched_ns(t, pub_next) <= now && bl + 80 <= sizeof batch) {
        uint64_t due = sched_ns(t, pub_next);
        if (first) {
            if (now - due > ME->pub_lag_max_ns) ME->pub_lag_max_ns = now - due;
            first = 0;
        }
        char msg[MSG_LEN + 1];
        bench_message(msg, due, t->seq_base + pub_next);
        bl += client_frame(batch + bl, 0x1, (const uint8_t *)msg, MSG_LEN);
        pub_next++;
    }
    if (bl && pub_slot >= 0) {
        if (csend(pub_slot, batch, bl) < 0) {
            BUMP(ME->closed_by_peer);
            release(pub_slot);
        }
        STORE(ME->pub_sent, ME->pub_sent + (bl / (MSG_LEN + 6)));
    }
    if (pub_next < t->nmsgs) arm_timer(sched_ns(t, pub_next));
}

static void worker_main(int w) {
    W = w;
    ME = &S->w[w];
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGPIPE, SIG_IGN);
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    nslots = (int)rl.rlim_cur - 16;
    cl = calloc((size_t)nslots, sizeof *cl);
    free_slots = calloc((size_t)nslots, sizeof *free_slots);
    if (!cl || !free_slots) wdie("calloc");
    for (int i = nslots - 1; i >= 0; i--) free_slots[nfree++] = (uint32_t)i;
    snprintf(ws_request_tail, sizeof ws_request_tail,
             "Host: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n", O.host,
             O.port);
    if (O.mode == MODE_PUSHER) {
        snprintf(ws_path, sizeof ws_path, "/app/%s?protocol=7&client=parley-loadgen&version=1.0", O.app_key);
        snprintf(events_path, sizeof events_path, "/apps/%s/events", O.app_id);
    }
    ep = epoll_create1(EPOLL_CLOEXEC);
    tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (ep < 0 || tfd < 0) wdie("epoll/timerfd");
    struct epoll_event tev = {.events = EPOLLIN, .data.u64 = TIMER_TOKEN};
    epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &tev);
    STORE(ME->pid, (int)getpid());

    uint64_t seen = 0;
    int cmd = CMD_NONE;
    int done = 1;
    uint64_t close_deadline = 0;
    static struct epoll_event evs[1024];
    for (;;) {
        uint64_t e = LOAD(S->epoch);
        if (e != seen) {
            seen = e;
            cmd = S->cmd;
            done = 0;
            switch (cmd) {
            case CMD_TRIAL:
                cur_trial = S->trial;
                if (is_publisher_worker()) {
                    pub_next = 0;
                    arm_timer(S->trials[cur_trial].start_ns);
                }
                done = 1;
                break;
            case CMD_COLLECT:
                closed_upto = S->trial + 1;
                done = 1;
                break;
            case CMD_CLOSE_ALL:
                for (int i = 0; i < nslots; i++)
                    if (cl[i].state == C_OPEN) send_close(i, 1000);
                close_deadline = now_ns() + 5000000000ull;
                break;
            case CMD_CYCLES:
                STORE(ME->cycles_done, 0);
                break;
            case CMD_EXIT: _exit(0);
            default: break;
            }
            if (done) STORE(ME->acked_epoch, seen);
        }
        if (!done) {
            if (cmd == CMD_CONNECT) {
                uint64_t target = ME->target;
                while (ME->open + (uint64_t)inflight < target && inflight < O.concurrency && nfree > 0) {
                    int before = inflight;
                    start_connect();
                    if (inflight == before) break; /* local failure: retry on the next turn */
                }
                if (ME->open >= target && inflight == 0) done = 1;
            } else if (cmd == CMD_CLOSE_ALL) {
                if (closing == 0 || now_ns() > close_deadline) {
                    for (int i = 0; i < nslots; i++)
                        if (cl[i].state == C_CLOSING) release(i);
                    done = 1;
                }
            } else if (cmd == CMD_CYCLES) {
                /* failed attempts are simply replaced: only completed cycles count */
                while (ME->cycles_done + (uint64_t)(inflight + closing) < ME->target &&
                       inflight + closing < O.concurrency && nfree > 0) {
                    int before = inflight;
                    start_connect();
                    if (inflight == before) break;
                }
                if (ME->cycles_done >= ME->target && inflight == 0 && closing == 0) done = 1;
            }
            if (done) STORE(ME->acked_epoch, seen);
        }
        int n = epoll_wait(ep, evs, 1024, 10);
        if (n < 0 && errno != EINTR) wdie("epoll_wait");
        for (int i = 0; i < n; i++) {
            uint64_t slot = evs[i].data.u64;
            if (slot == TIMER_TOKEN) {
                on_timer();
                continue;
            }
            struct client *c = &cl[slot];
            if (c->state == C_FREE) continue;
            uint32_t ev = evs[i].events;
            if (ev & EPOLLOUT) on_writable((int)slot);
            if (c->state != C_FREE && c->state != C_CONNECTING && (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))) {
                peer_hung_up = (ev & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0;
                do on_read((int)slot);
                while (read_again && c->state != C_FREE);
            }
            else if (c->state == C_CONNECTING && (ev & (EPOLLHUP | EPOLLERR)) && !(ev & EPOLLOUT)) {
                BUMP(ME->connect_errors);
                release((int)slot);
            }
        }
    }
}

/* ---------- controller ---------- */

static uint64_t clk_tck;

/* utime+stime of a process (all its threads), in ns; 0 if unreadable. */
static uint64_t proc_cpu_ns(int pid) {
    if (pid <= 0) return 0;
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p) return 0;
    unsigned long long ut = 0, st = 0;
    /* fields after ")": state(3) and ten more fields, then minflt cminflt majflt cmajflt utime(14) stime(15) */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2) return 0;
    return (ut + st) * (1000000000ull / clk_tck);
}

/* Time all of a process's threads spent runnable but waiting for a CPU (schedstat field 2), ns. */
static uint64_t proc_runq_wait_ns(int pid) {
    if (pid <= 0) return 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d) return 0;
    uint64_t sum = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p2[300];
        snprintf(p2, sizeof p2, "/proc/%d/task/%s/schedstat", pid, e->d_name);
        FILE *f = fopen(p2, "r");
        if (!f) continue;
        unsigned long long run, wait;
        if (fscanf(f, "%llu %llu", &run, &wait) == 2) sum += wait;
        fclose(f);
    }
    closedir(d);
    return sum;
}

/* Busy CPU time of the whole host (all cores, from /proc/stat), ns. */
static uint64_t host_busy_ns(void) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return 0;
    unsigned long long v[10] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                   &v[7]);
    fclose(f);
    if (n < 8) return 0;
    /* user nice system [idle iowait] irq softirq steal */
    return (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * (1000000000ull / clk_tck);
}

static long proc_status_kb(int pid, const char *field) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long v = -1;
    size_t fl = strlen(field);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, fl) && line[fl] == ':') {
            v = atol(line + fl + 1);
            break;
        }
    fclose(f);
    return v;
}

static int proc_fd_count(int pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

static uint64_t loadgen_cpu_ns(void) {
    uint64_t s = 0;
    for (int i = 0; i < O.nw; i++) s += proc_cpu_ns(S->w[i].pid);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    s += (uint64_t)ru.ru_utime.tv_sec * 1000000000ull + (uint64_t)ru.ru_utime.tv_usec * 1000ull +
         (uint64_t)ru.ru_stime.tv_sec * 1000000000ull + (uint64_t)ru.ru_stime.tv_usec * 1000ull;
    return s;
}

static pid_t kids[MAX_WORKERS];
static uint64_t t_begin;

/* CPU time and run-queue wait of each worker process, at one moment. */
struct lgsample {
    uint64_t cpu[MAX_WORKERS], wait[MAX_WORKERS];
};

static void lg_sample(struct lgsample *s) {
    for (int i = 0; i < O.nw; i++) {
        s->cpu[i] = proc_cpu_ns(S->w[i].pid);
        s->wait[i] = proc_runq_wait_ns(S->w[i].pid);
    }
}

/* Time the workers waited for a CPU that their sibling workers' running does not explain: pinned to
 * the same core, a worker waits while its siblings run, which says nothing about other processes;
 * so each worker's wait is counted only beyond the CPU time its siblings used meanwhile. */
static uint64_t lg_foreign_wait_ns(const struct lgsample *a, const struct lgsample *b) {
    uint64_t all = 0, sum = 0;
    for (int i = 0; i < O.nw; i++) all += b->cpu[i] - a->cpu[i];
    for (int i = 0; i < O.nw; i++) {
        uint64_t wait = b->wait[i] - a->wait[i], siblings = all - (b->cpu[i] - a->cpu[i]);
        if (wait > siblings) sum += wait - siblings;
    }
    return sum;
}

static void abort_run(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "loadgen: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    for (int i = 0; i < O.nw; i++)
        if (kids[i] > 0) kill(kids[i], SIGKILL);
    printf("RESULT label=%s status=failed\n", O.label);
    exit(1);
}

static void check_deadline(void) {
    if (now_ns() - t_begin > (uint64_t)(O.max_secs * 1e9)) abort_run("overall time limit (--max-secs) reached");
    if (O.server_pid > 0 && kill(O.server_pid, 0) < 0 && errno == ESRCH) abort_run("server process is gone");
    for (int i = 0; i < O.nw; i++) {
        int st;
        if (kids[i] > 0 && waitpid(kids[i], &st, WNOHANG) == kids[i]) {
            kids[i] = -1;
            abort_run("worker %d exited unexpectedly", i);
        }
    }
}

/* Issues a command and waits until every worker acknowledges it (or the timeout). */
static int command(int cmd, int trial, double timeout_s) {
    S->cmd = cmd;
    S->trial = trial;
    uint64_t e = S->epoch + 1;
    STORE(S->epoch, e);
    uint64_t deadline = now_ns() + (uint64_t)(timeout_s * 1e9);
    for (;;) {
        int all = 1;
        for (int i = 0; i < O.nw; i++)
            if (LOAD(S->w[i].acked_epoch) != e) all = 0;
        if (all) return 0;
        if (now_ns() > deadline) return -1;
        check_deadline();
        sleep_ns(2000000);
    }
}

static uint64_t sum_open(void) {
    uint64_t s = 0;
    for (int i = 0; i < O.procs; i++) s += LOAD(S->w[i].open);
    return s;
}

#define SUMW(field)                                                                                                    \
    ({                                                                                                                 \
        uint64_t _s = 0;                                                                                               \
        for (int _i = 0; _i < O.nw; _i++) _s += LOAD(S->w[_i].field);                                               \
        _s;                                                                                                            \
    })

static void connect_all(uint64_t total) {
    for (int i = 0; i < O.procs; i++) S->w[i].target = total / (uint64_t)O.procs + ((uint64_t)i < total % (uint64_t)O.procs);
    if (O.mode == MODE_PUSHER) S->w[O.procs].target = (uint64_t)O.pub_conns;
    uint64_t t0 = now_ns();
    if (command(CMD_CONNECT, -1, O.connect_timeout) < 0)
        abort_run("could not open %llu connections within %.0f s (open %llu, connect errors %llu, handshake errors %llu)",
                  (unsigned long long)total, O.connect_timeout, (unsigned long long)sum_open(),
                  (unsigned long long)SUMW(connect_errors), (unsigned long long)SUMW(handshake_errors));
    double secs = (double)(now_ns() - t0) / 1e9;
    printf("connected %llu WebSocket clients in %.2f s (%.0f/s; connect errors %llu, handshake errors %llu)\n",
           (unsigned long long)sum_open(), secs, (double)total / (secs > 0 ? secs : 1),
           (unsigned long long)SUMW(connect_errors), (unsigned long long)SUMW(handshake_errors));
    if (O.mode == MODE_PUSHER) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (int c = 0; c < O.channels; c++) {
            uint32_t n = 0;
            for (int i = 0; i < O.procs; i++) n += LOAD(S->w[i].chan_subs[c]);
            if (n < lo) lo = n;
            if (n > hi) hi = n;
        }
        printf("subscribed: %d channel%s, %u to %u subscribers each; publisher: %llu HTTP connections to %s\n", O.channels,
               O.channels > 1 ? "s" : "", lo, hi, (unsigned long long)LOAD(S->w[O.procs].open), O.app_id);
    }
    fflush(stdout);
}

/* Deliveries a trial should produce: every subscriber once per message (broadcast), every
 * subscriber of the event's channel once per event (pusher: message k goes to channel k % C). */
static uint64_t expected_deliveries(uint64_t seq_base, uint64_t nmsgs) {
    if (O.mode != MODE_PUSHER) return nmsgs * sum_open();
    static uint64_t subs[MAX_CHANNELS];
    for (int c = 0; c < O.channels; c++) {
        subs[c] = 0;
        for (int i = 0; i < O.procs; i++) subs[c] += LOAD(S->w[i].chan_subs[c]);
    }
    uint64_t e = 0;
    for (uint64_t k = 0; k < nmsgs; k++) e += subs[(seq_base + k) % (uint64_t)O.channels];
    return e;
}

struct tres {
    double rate, secs;
    uint64_t nmsgs, expected, delivered;
    double span_s, deliv_per_s, server_cpu_s, lg_cpu_s, wall_s;
    double p50_ms, p99_ms, p999_ms, max_ms;
    double pub_lag_ms;
    double server_wait_pct, loadgen_wait_pct; /* time runnable but waiting for a CPU, % of the trial */
    double others_cpu;                        /* CPU used by every other process, in cores */
    double redis_cpu_s;                       /* --redis-pid's CPU during the trial */
    int sustained, contended;
};

static int ntrials;
static uint64_t next_seq = 1;

static struct tres run_trial(const char *kind, double rate, double secs);

/* The server's CPU: --server-pid and every --extra-pids process (all nodes and Redis). */
static uint64_t servers_cpu_ns(void) {
    uint64_t total = proc_cpu_ns(O.server_pid);
    for (int i = 0; i < O.nextra_pids; i++) total += proc_cpu_ns(O.extra_pids[i]);
    return total;
}

/* Waits (at most --quiet-max seconds) until processes other than the server and this load
 * generator use less than 0.2 cores, sampled over one second. */
static void wait_for_quiet(void) {
    uint64_t deadline = now_ns() + (uint64_t)(O.quiet_max * 1e9);
    for (;;) {
        uint64_t h0 = host_busy_ns(), s0 = servers_cpu_ns(), l0 = loadgen_cpu_ns(), t0 = now_ns();
        sleep_ns(1000000000ull);
        double others = ((double)(host_busy_ns() - h0) - (double)(servers_cpu_ns() - s0) -
                         (double)(loadgen_cpu_ns() - l0)) / (double)(now_ns() - t0);
        if (others < 0.2) return;
        if (now_ns() > deadline) {
            printf("          (other processes still use %.2f cores; going on)\n", others);
            return;
        }
        check_deadline();
    }
}

/* The search's latency bound: a step only counts as sustained if its p99 latency stays within
 * knee_factor x the lowest p99 of the sustained steps before it (the lightest ones) +
 * knee_slack_ms. Delivering everything within the window is not enough: a server that batches
 * under overload keeps delivering everything while a standing queue holds latency at tens of
 * times its unloaded value, and "50% of saturation" would then be a loaded point. Saturation is
 * the highest rate served at near-unloaded latency. The lowest earlier p99, not the first one,
 * so that a hiccup in the first step does not loosen the bound for the whole search. */
static double search_base_p99_ms = -1;

static void apply_latency_bound(struct tres *t) {
    if (O.knee_factor <= 0 || !t->sustained) return;
    if (search_base_p99_ms >= 0) {
        double bound = O.knee_factor * search_base_p99_ms + O.knee_slack_ms;
        if (t->p99_ms > bound) {
            t->sustained = 0;
            printf("          (p99 %.2f ms over the search's bound %.2f ms: a standing queue, not sustained)\n",
                   t->p99_ms, bound);
            fflush(stdout);
            return;
        }
    }
    if (search_base_p99_ms < 0 || t->p99_ms < search_base_p99_ms) search_base_p99_ms = t->p99_ms;
}

/* A search step; a failure caused by other processes hogging the CPUs is retried (bounded). */
static struct tres search_trial(const char *kind, double rate) {
    struct tres t = run_trial(kind, rate, O.trial_secs);
    apply_latency_bound(&t);
    for (int retry = 0; retry < O.retries && !t.sustained && t.contended && ntrials < MAX_TRIALS - 8; retry++) {
        printf("          (contended by other processes: waiting for quiet, then repeating)\n");
        fflush(stdout);
        sleep_ns((uint64_t)(O.retry_wait * 1e9));
        wait_for_quiet();
        t = run_trial(kind, rate, O.trial_secs);
        apply_latency_bound(&t);
    }
    return t;
}

static struct tres run_trial(const char *kind, double rate, double secs) {
    if (ntrials >= MAX_TRIALS) abort_run("too many trials");
    int ti = ntrials++;
    struct trial_spec *t = &S->trials[ti];
    uint64_t nmsgs = (uint64_t)llround(rate * secs);
    if (nmsgs < 1) nmsgs = 1;
    t->rate = rate;
    t->nmsgs = nmsgs;
    t->seq_base = next_seq;
    next_seq += nmsgs;
    t->start_ns = now_ns() + 100000000ull;
    for (int i = 0; i < O.nw; i++) S->w[i].pub_lag_max_ns = 0;
    uint64_t expected = expected_deliveries(t->seq_base, nmsgs);
    double fanout = (double)expected / (double)nmsgs;
    if (command(CMD_TRIAL, ti, 10) < 0) abort_run("workers did not start trial %d", ti);
    while (now_ns() < t->start_ns) sleep_ns(1000000);
    uint64_t srv0 = servers_cpu_ns(), lg0 = loadgen_cpu_ns(), w0 = now_ns(), rd0 = proc_cpu_ns(O.redis_pid);
    uint64_t q0 = proc_runq_wait_ns(O.server_pid), h0 = host_busy_ns();
    struct lgsample ls0, ls1;
    lg_sample(&ls0);
    uint64_t end = t->start_ns + (uint64_t)((double)nmsgs * 1e9 / rate);
    uint64_t deadline = end + (uint64_t)(O.drain_secs * 1e9);
    uint64_t last_count = 0, last_change = now_ns();
    for (;;) {
        sleep_ns(5000000);
        check_deadline();
        uint64_t got = 0;
        for (int i = 0; i < O.nw; i++) got += LOAD(S->w[i].t[ti].deliveries);
        uint64_t now = now_ns();
        if (got != last_count) {
            last_count = got;
            last_change = now;
        }
        if (got >= expected) break;
        if (now > deadline) break;
        if (now > end && now - last_change > 2000000000ull) break; /* nothing more is coming */
    }
    uint64_t srv1 = servers_cpu_ns(), lg1 = loadgen_cpu_ns(), w1 = now_ns(), rd1 = proc_cpu_ns(O.redis_pid);
    uint64_t q1 = proc_runq_wait_ns(O.server_pid), h1 = host_busy_ns();
    lg_sample(&ls1);
    if (command(CMD_COLLECT, ti, 10) < 0) abort_run("workers did not finish trial %d", ti);
    static uint64_t h[HN];
    memset(h, 0, sizeof h);
    uint64_t delivered = 0, last = 0, lag = 0;
    for (int i = 0; i < O.nw; i++) {
        struct wtrial *wt = &S->w[i].t[ti];
        delivered += wt->deliveries;
        if (wt->last_ns > last) last = wt->last_ns;
        for (int b = 0; b < HN; b++) h[b] += wt->hist[b];
        if (S->w[i].pub_lag_max_ns > lag) lag = S->w[i].pub_lag_max_ns;
    }
    struct tres r = {.rate = rate, .secs = (double)nmsgs / rate, .nmsgs = nmsgs, .expected = expected,
                     .delivered = delivered};
    r.span_s = last > t->start_ns ? (double)(last - t->start_ns) / 1e9 : 0;
    r.deliv_per_s = r.span_s > 0 ? (double)delivered / r.span_s : 0;
    r.server_cpu_s = (double)(srv1 - srv0) / 1e9;
    r.redis_cpu_s = (double)(rd1 - rd0) / 1e9;
    r.lg_cpu_s = (double)(lg1 - lg0) / 1e9;
    r.wall_s = (double)(w1 - w0) / 1e9;
    r.p50_ms = (double)hpercentile(h, delivered, 0.50) / 1e6;
    r.p99_ms = (double)hpercentile(h, delivered, 0.99) / 1e6;
    r.p999_ms = (double)hpercentile(h, delivered, 0.999) / 1e6;
    r.max_ms = (double)hpercentile(h, delivered, 1.0) / 1e6;
    r.pub_lag_ms = (double)lag / 1e6;
    r.server_wait_pct = 100.0 * (double)(q1 - q0) / (double)(w1 - w0);
    r.others_cpu = ((double)(h1 - h0) - (double)(srv1 - srv0) - (double)(lg1 - lg0)) / (double)(w1 - w0);
    if (r.others_cpu < 0) r.others_cpu = 0;
    r.loadgen_wait_pct = 100.0 * (double)lg_foreign_wait_ns(&ls0, &ls1) / (double)(w1 - w0);
    r.contended = r.server_wait_pct > 10.0 || r.loadgen_wait_pct > 10.0;
    r.sustained = expected > 0 && (double)delivered >= 0.999 * (double)expected &&
                  r.span_s <= r.secs * 1.03 + 0.1;
    char eff[64] = "n/a";
    if (O.server_pid > 0 && r.server_cpu_s > 0)
        snprintf(eff, sizeof eff, "%.0f", (double)delivered / r.server_cpu_s);
    printf("%-9s %7.2f msg/s x %.0f = %8.0f/s offered | delivered %5.1f%% at %8.0f/s | "
           "latency p50 %7.2f p99 %7.2f p99.9 %7.2f max %7.2f ms | server CPU %5.2f s -> %s deliveries/CPU-s | "
           "loadgen CPU %3.0f%% | pub lag max %.1f ms | waited for a CPU: server %.0f%%, loadgen %.0f%% | others used %.2f cores%s | %s\n",
           kind, rate, fanout, rate * fanout,
           expected ? 100.0 * (double)delivered / (double)expected : 0.0, r.deliv_per_s, r.p50_ms, r.p99_ms,
           r.p999_ms, r.max_ms, r.server_cpu_s, eff, 100.0 * r.lg_cpu_s / (r.wall_s > 0 ? r.wall_s : 1), r.pub_lag_ms,
           r.server_wait_pct, r.loadgen_wait_pct, r.others_cpu, r.contended ? " CONTENDED" : "", r.sustained ? "sustained" : "NOT sustained");
    fflush(stdout);
    return r;
}

static double eff(const struct tres *r) {
    return r->server_cpu_s > 0 ? (double)r->delivered / r->server_cpu_s : 0;
}

static void print_result_fields(const char *prefix, const struct tres *r) {
    printf(" %s_rate=%.3f %s_deliv_per_s=%.0f %s_delivered_pct=%.2f %s_p50_ms=%.3f %s_p99_ms=%.3f %s_p999_ms=%.3f "
           "%s_max_ms=%.3f %s_server_cpu_s=%.3f %s_deliv_per_cpu_s=%.0f %s_loadgen_cpu_pct=%.1f %s_server_cpu_pct=%.1f %s_server_wait_pct=%.1f %s_loadgen_wait_pct=%.1f %s_others_cores=%.2f %s_contended=%d %s_sustained=%d",
           prefix, r->rate, prefix, r->deliv_per_s, prefix,
           r->expected ? 100.0 * (double)r->delivered / (double)r->expected : 0.0, prefix, r->p50_ms, prefix, r->p99_ms,
           prefix, r->p999_ms, prefix, r->max_ms, prefix, r->server_cpu_s, prefix, eff(r), prefix,
           100.0 * r->lg_cpu_s / (r->wall_s > 0 ? r->wall_s : 1), prefix,
           100.0 * r->server_cpu_s / (r->wall_s > 0 ? r->wall_s : 1), prefix, r->server_wait_pct, prefix, r->loadgen_wait_pct, prefix, r->others_cpu,
           prefix, r->contended, prefix, r->sustained);
    if (O.redis_pid > 0)
        printf(" %s_redis_cpu_s=%.3f %s_redis_us_per_delivery=%.4f", prefix, r->redis_cpu_s, prefix,
               r->delivered ? 1e6 * r->redis_cpu_s / (double)r->delivered : 0.0);
}

static void broadcast_run(void) {
    connect_all((uint64_t)O.clients);
    uint64_t subs = sum_open();
    struct tres best = {0}, peak = {0}, fixed = {0}, half = {0};
    int have_best = 0, have_fixed = 0, have_half = 0;
    if (O.search) {
        /* start near 20,000 deliveries/s whatever the fan-out */
        double fan = O.mode == MODE_PUSHER ? (double)subs / (double)O.channels : (double)subs;
        double r = O.start_rate > 0 ? O.start_rate : 20000.0 / (fan > 0 ? fan : 1);
        double fail = 0;
        for (;;) {
            struct tres t = search_trial("search", r);
            if (t.deliv_per_s > peak.deliv_per_s) peak = t;
            if (!t.sustained) {
                fail = r;
                break;
            }
            best = t;
            have_best = 1;
            r *= O.ramp;
            if (ntrials > MAX_TRIALS - O.bisect - 4) break;
        }
        if (have_best && fail > 0) {
            double lo = best.rate, hi = fail;
            for (int i = 0; i < O.bisect; i++) {
                double mid = (lo + hi) / 2;
                struct tres t = search_trial("bisect", mid);
                if (t.deliv_per_s > peak.deliv_per_s) peak = t;
                if (t.sustained) {
                    best = t;
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        }
        if (have_best)
            printf("saturation: %.2f msg/s sustained = %.0f deliveries/s, %.0f deliveries per server CPU-second "
                   "(server CPU %.0f%%, loadgen CPU %.0f%% of one core); peak delivered %.0f/s\n",
                   best.rate, best.deliv_per_s, eff(&best), 100.0 * best.server_cpu_s / best.wall_s,
                   100.0 * best.lg_cpu_s / best.wall_s, peak.deliv_per_s);
        else
            printf("saturation: not even the starting rate %.2f msg/s was sustained\n", r);
    }
    if (O.fixed_rate > 0) {
        if (O.warmup_secs > 0) run_trial("warmup", O.fixed_rate, O.warmup_secs);
        fixed = run_trial("fixed", O.fixed_rate, O.fixed_secs);
        have_fixed = 1;
    }
    if (O.half && have_best) {
        half = run_trial("half", best.rate / 2, O.half_secs);
        have_half = 1;
    }
    struct tres frac[MAX_FRACTIONS];
    char frac_name[MAX_FRACTIONS][16];
    int nfrac = 0;
    for (int i = 0; i < O.nfractions && have_best; i++) {
        snprintf(frac_name[i], sizeof frac_name[i], "f%.0f", O.fractions[i] * 100);
        frac[i] = run_trial(frac_name[i], best.rate * O.fractions[i], O.half_secs);
        nfrac = i + 1;
    }
    printf("RESULT label=%s status=ok clients=%llu", O.label, (unsigned long long)subs);
    if (have_best) {
        print_result_fields("sat", &best);
        printf(" peak_deliv_per_s=%.0f", peak.deliv_per_s);
    }
    if (have_fixed) print_result_fields("fixed", &fixed);
    if (have_half) print_result_fields("half", &half);
    for (int i = 0; i < nfrac; i++) print_result_fields(frac_name[i], &frac[i]);
    if (O.mode == MODE_PUSHER)
        printf(" channels=%d pub_requests=%llu pub_answers=%llu pub_failed=%llu pub_lost=%llu pub_pipelined_max=%llu "
               "pusher_errors=%llu wrong_channel=%llu",
               O.channels, (unsigned long long)SUMW(pub_sent), (unsigned long long)SUMW(pub_answers),
               (unsigned long long)SUMW(pub_failed), (unsigned long long)SUMW(pub_lost),
               (unsigned long long)SUMW(pub_pipelined_max), (unsigned long long)SUMW(pusher_errors),
               (unsigned long long)SUMW(wrong_channel));
    printf(" closed_by_server=%llu protocol_errors=%llu bad_payload=%llu late=%llu\n",
           (unsigned long long)SUMW(closed_by_peer), (unsigned long long)SUMW(protocol_errors),
           (unsigned long long)SUMW(bad_payload), (unsigned long long)SUMW(late));
}

static void rss_line(const char *what, long base_kb, uint64_t conns) {
    long rss = proc_status_kb(O.server_pid, "VmRSS");
    int fds = proc_fd_count(O.server_pid);
    if (conns > 0)
        printf("%-26s server RSS %8ld KiB  (+%ld KiB over baseline, %.2f KiB per connection)  server fds %d\n", what,
               rss, rss - base_kb, (double)(rss - base_kb) / (double)conns, fds);
    else
        printf("%-26s server RSS %8ld KiB  (%+ld KiB vs baseline)  server fds %d\n", what, rss, rss - base_kb, fds);
    fflush(stdout);
}

static void idle_run(void) {
    if (O.server_pid <= 0) abort_run("--mode idle needs --server-pid");
    long cold = proc_status_kb(O.server_pid, "VmRSS");
    if (O.warm > 0) {
        /* One-time lazy initialisation (libraries, shared buffers) is not a per-connection cost. */
        connect_all((uint64_t)O.warm);
        if (command(CMD_CLOSE_ALL, -1, 30) < 0) abort_run("closing the warm-up connections timed out");
        sleep_ns((uint64_t)(O.settle_secs * 1e9));
        printf("cold start                 server RSS %8ld KiB; warmed up with %d connections\n", cold, O.warm);
    }
    long base = proc_status_kb(O.server_pid, "VmRSS");
    printf("baseline                   server RSS %8ld KiB  server fds %d\n", base, proc_fd_count(O.server_pid));
    fflush(stdout);
    char res[2048] = "";
    size_t rl = 0;
    long prev_rss = base;
    int prev_n = 0;
    for (int s = 0; s < O.nsteps; s++) {
        connect_all((uint64_t)O.steps[s]);
        sleep_ns((uint64_t)(O.settle_secs * 1e9));
        long rss = proc_status_kb(O.server_pid, "VmRSS");
        char what[64];
        snprintf(what, sizeof what, "%d idle connections", O.steps[s]);
        rss_line(what, base, (uint64_t)O.steps[s]);
        if (O.steps[s] > prev_n)
            printf("%-26s marginal %.2f KiB per connection from %d to %d\n", "", (double)(rss - prev_rss) / (O.steps[s] - prev_n),
                   prev_n, O.steps[s]);
        prev_rss = rss;
        prev_n = O.steps[s];
        rl += (size_t)snprintf(res + rl, sizeof res - rl, " idle_%d_kb=%ld idle_%d_kb_per_conn=%.3f", O.steps[s], rss,
                               O.steps[s], (double)(rss - base) / O.steps[s]);
    }
    if (command(CMD_CLOSE_ALL, -1, 30) < 0) abort_run("closing the idle connections timed out");
    sleep_ns((uint64_t)(O.settle_secs * 1e9));
    long after_close = proc_status_kb(O.server_pid, "VmRSS");
    rss_line("all closed", base, 0);
    if (O.cycles > 0) {
        for (int i = 0; i < O.procs; i++)
            S->w[i].target = (uint64_t)O.cycles / (uint64_t)O.procs + ((uint64_t)i < (uint64_t)O.cycles % (uint64_t)O.procs);
        uint64_t t0 = now_ns();
        if (command(CMD_CYCLES, -1, O.connect_timeout * 5) < 0)
            abort_run("connect/disconnect cycles timed out (%llu done)", (unsigned long long)SUMW(cycles_done));
        double secs = (double)(now_ns() - t0) / 1e9;
        printf("%llu connect/handshake/close cycles in %.1f s (%.0f/s; connect errors %llu, handshake errors %llu)\n",
               (unsigned long long)SUMW(cycles_done), secs, (double)SUMW(cycles_done) / secs,
               (unsigned long long)SUMW(connect_errors), (unsigned long long)SUMW(handshake_errors));
        sleep_ns((uint64_t)(O.settle_secs * 1e9));
        rss_line("after cycles", base, 0);
    }
    long after = proc_status_kb(O.server_pid, "VmRSS");
    printf("RESULT label=%s status=ok cold_kb=%ld baseline_kb=%ld%s after_close_kb=%ld cycles=%d after_cycles_kb=%ld\n", O.label, cold, base,
           res, after_close, O.cycles, after);
}

static void usage(void) {
    fprintf(stderr,
            "usage: loadgen [options]\n"
            "  --host ADDR --port N        server (default 127.0.0.1:9001)\n"
            "  --server-pid PID            server process: CPU time and RSS are read from /proc/PID\n"
            "  --sub-ports P,Q             subscribers connect to these ports in turn (publishes go to --port)\n"
            "  --extra-pids A,B            more processes counted in the server's CPU (other nodes, Redis)\n"
            "  --redis-pid PID             also report this process's CPU alone, per delivery\n"
            "  --label NAME                name printed in the RESULT line\n"
            "  --mode broadcast|idle|pusher  (default broadcast)\n"
            "  --clients N                 WebSocket clients, publisher included (default 10000)\n"
            "  --procs P                   worker processes (default: each under 15000 descriptors)\n"
            "  --src-base A --src-count K  source addresses A, A+1, ... (default 127.0.0.2, 16)\n"
            "  --concurrency N             handshakes in flight per worker (default 256)\n"
            " broadcast:\n"
            "  --search                    ramp the rate (x --ramp, default 1.5) until not sustained, then bisect\n"
            "  --start-rate R              first search rate, messages/s (default 20000/clients)\n"
            "  --trial-secs S              length of each search trial (default 4)\n"
            "  --bisect K                  bisection steps after the ramp (default 3)\n"
            "  --knee-factor F --knee-slack-ms M  a search step is sustained only if its p99 latency is at most\n"
            "                              F x the lowest p99 of the sustained steps before it + M ms (default 2 and 20; --knee-factor 0: no bound)\n"
            "  --half [--half-secs S]      after --search, a run at 50%% of the saturation rate (default 10 s)\n"
            "  --fixed-rate R [--fixed-secs S] [--warmup-secs S]  a run at R messages/s (default 10 s, 2 s warm-up)\n"
            "  --fractions F,G             after --search, a run of --half-secs at each fraction of saturation\n"
            " pusher (the trial options above apply; rates are events/s, each to one channel):\n"
            "  --app-id ID --app-key K --app-secret S   the app (default 1, bench-key, bench-secret)\n"
            "  --channels C                channels bench-0..bench-(C-1), subscribers spread evenly (default 1)\n"
            "  --pub-conns N               publisher's keep-alive HTTP connections (default 8)\n"
            "  --drain-secs S              longest wait for outstanding deliveries after a trial (default 30)\n"
            "  --retries N                 repeat a failed search step that other processes contended (default 2),\n"
            "  --quiet-max S               after waiting up to S s for them to go quiet (default 60)\n"
            " idle:\n"
            "  --steps A,B,C               cumulative idle connection counts (default 1000,5000,10000,19000)\n"
            "  --cycles N                  connect/handshake/close cycles afterwards (default 100000)\n"
            "  --settle-secs S             pause before each RSS reading (default 2)\n"
            "  --warm N                    open and close N connections before the baseline reading (default 100)\n"
            "  --connect-timeout S --max-secs S   time limits (default 120, 900)\n");
    exit(2);
}

int main(int argc, char **argv) {
    int procs_given = 0;
    const char *steps = "1000,5000,10000,19000";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define ARG(name) (!strcmp(a, name) && v && ++i)
        if (ARG("--host")) O.host = v;
        else if (ARG("--port")) O.port = atoi(v);
        else if (ARG("--server-pid")) O.server_pid = atoi(v);
        else if (ARG("--sub-ports") || ARG("--extra-pids")) {
            int ports = !strcmp(a, "--sub-ports"); /* ARG already consumed the value */
            int *list = ports ? O.sub_ports : O.extra_pids;
            int *n = ports ? &O.nsub_ports : &O.nextra_pids;
            for (char *t = strtok(strdup(v), ","); t && *n < 8; t = strtok(NULL, ",")) list[(*n)++] = atoi(t);
        } else if (ARG("--redis-pid")) O.redis_pid = atoi(v);
        else if (ARG("--label")) O.label = v;
        else if (ARG("--mode")) {
            if (!strcmp(v, "idle")) O.mode = MODE_IDLE;
            else if (!strcmp(v, "pusher")) O.mode = MODE_PUSHER;
            else if (!strcmp(v, "broadcast")) O.mode = MODE_BROADCAST;
            else usage();
        } else if (ARG("--app-id")) O.app_id = v;
        else if (ARG("--app-key")) O.app_key = v;
        else if (ARG("--app-secret")) O.app_secret = v;
        else if (ARG("--channels")) O.channels = atoi(v);
        else if (ARG("--pub-conns")) O.pub_conns = atoi(v);
        else if (ARG("--fractions")) {
            O.nfractions = 0;
            for (const char *q = v; *q && O.nfractions < MAX_FRACTIONS;) {
                O.fractions[O.nfractions++] = atof(q);
                q = strchr(q, ',');
                if (!q) break;
                q++;
            }
        }
        else if (ARG("--clients")) O.clients = atoi(v);
        else if (ARG("--procs")) O.procs = atoi(v), procs_given = 1;
        else if (ARG("--src-base")) {
            struct in_addr ia;
            if (inet_pton(AF_INET, v, &ia) != 1) usage();
            O.src_base = ntohl(ia.s_addr);
        } else if (ARG("--src-count")) O.src_count = atoi(v);
        else if (ARG("--concurrency")) O.concurrency = atoi(v);
        else if (!strcmp(a, "--search")) O.search = 1;
        else if (ARG("--start-rate")) O.start_rate = atof(v);
        else if (ARG("--ramp")) O.ramp = atof(v);
        else if (ARG("--bisect")) O.bisect = atoi(v);
        else if (ARG("--trial-secs")) O.trial_secs = atof(v);
        else if (!strcmp(a, "--half")) O.half = 1;
        else if (ARG("--half-secs")) O.half_secs = atof(v);
        else if (ARG("--fixed-rate")) O.fixed_rate = atof(v);
        else if (ARG("--fixed-secs")) O.fixed_secs = atof(v);
        else if (ARG("--warmup-secs")) O.warmup_secs = atof(v);
        else if (ARG("--drain-secs")) O.drain_secs = atof(v);
        else if (ARG("--retries")) O.retries = atoi(v);
        else if (ARG("--knee-factor")) O.knee_factor = atof(v);
        else if (ARG("--knee-slack-ms")) O.knee_slack_ms = atof(v);
        else if (ARG("--retry-wait")) O.retry_wait = atof(v);
        else if (ARG("--quiet-max")) O.quiet_max = atof(v);
        else if (ARG("--warm")) O.warm = atoi(v);
        else if (ARG("--steps")) steps = v;
        else if (ARG("--cycles")) O.cycles = atoi(v);
        else if (ARG("--settle-secs")) O.settle_secs = atof(v);
        else if (ARG("--connect-timeout")) O.connect_timeout = atof(v);
        else if (ARG("--max-secs")) O.max_secs = atof(v);
        else usage();
#undef ARG
    }
    if (O.mode == MODE_IDLE) {
        for (const char *p = steps; *p && O.nsteps < MAX_STEPS;) {
            O.steps[O.nsteps++] = atoi(p);
            p = strchr(p, ',');
            if (!p) break;
            p++;
        }
    }
    int peak_conns = O.clients;
    if (O.mode == MODE_IDLE) {
        peak_conns = 0;
        for (int s = 0; s < O.nsteps; s++)
            if (O.steps[s] > peak_conns) peak_conns = O.steps[s];
    }
    if (O.mode != MODE_IDLE && !O.search && O.fixed_rate <= 0) {
        fprintf(stderr, "loadgen: broadcast and pusher modes need --search and/or --fixed-rate\n");
        usage();
    }
    if (O.channels < 1 || O.channels > MAX_CHANNELS || O.pub_conns < 1 || O.pub_conns > MAX_PUB_CONNS) {
        fprintf(stderr, "loadgen: --channels must be 1..%d and --pub-conns 1..%d\n", MAX_CHANNELS, MAX_PUB_CONNS);
        return 2;
    }
    for (int i = 0; i < O.nfractions; i++)
        if (O.fractions[i] <= 0 || O.fractions[i] > 2) {
            fprintf(stderr, "loadgen: --fractions are fractions of the saturation rate, e.g. 0.5,0.9\n");
            return 2;
        }
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    int per_proc_cap = (int)rl.rlim_cur - 64 - O.concurrency;
    if (per_proc_cap > 15000) per_proc_cap = 15000;
    if (!procs_given) O.procs = (peak_conns + per_proc_cap - 1) / per_proc_cap;
    if (O.procs < 1) O.procs = 1;
    if (O.procs > MAX_WORKERS - 1) O.procs = MAX_WORKERS - 1; /* one left for a publisher */
    O.nw = O.procs + (O.mode == MODE_PUSHER);
    if ((peak_conns + O.procs - 1) / O.procs + O.concurrency + 32 > (int)rl.rlim_cur) {
        fprintf(stderr, "loadgen: %d connections over %d processes exceed the descriptor limit %llu per process\n",
                peak_conns, O.procs, (unsigned long long)rl.rlim_cur);
        return 2;
    }
    clk_tck = (uint64_t)sysconf(_SC_CLK_TCK);
    S = mmap(NULL, sizeof *S, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (S == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    t_begin = now_ns();
    printf("loadgen: %s mode, target %s:%d, %d worker process%s, source addresses %d from ",
           O.mode == MODE_IDLE ? "idle" : O.mode == MODE_PUSHER ? "pusher" : "broadcast", O.host, O.port, O.procs, O.procs > 1 ? "es" : "", O.src_count);
    struct in_addr ia = {.s_addr = htonl(O.src_base)};
    printf("%s, server pid %d\n", inet_ntoa(ia), O.server_pid);
    fflush(stdout);
    for (int i = 0; i < O.nw; i++) {
        pid_t p = fork();
        if (p < 0) abort_run("fork: %s", strerror(errno));
        if (p == 0) worker_main(i);
        kids[i] = p;
    }
    for (int i = 0; i < O.nw; i++)
        while (!LOAD(S->w[i].pid)) sleep_ns(1000000);
    if (O.mode == MODE_IDLE) idle_run();
    else broadcast_run();
    fflush(stdout);
    S->cmd = CMD_EXIT;
    STORE(S->epoch, S->epoch + 1);
    for (int i = 0; i < O.nw; i++) {
        int st;
        uint64_t dl = now_ns() + 5000000000ull;
        while (waitpid(kids[i], &st, WNOHANG) == 0) {
            if (now_ns() > dl) {
                kill(kids[i], SIGKILL);
                waitpid(kids[i], &st, 0);
                break;
            }
            sleep_ns(5000000);
        }
    }
    return 0;
}
