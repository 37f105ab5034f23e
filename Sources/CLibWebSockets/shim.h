#ifndef SCROLL_WIDGETS_LWS_SHIM_H
#define SCROLL_WIDGETS_LWS_SHIM_H

/*
 * Thin C helpers for the Swift bridge. Everything here exists because Swift
 * cannot see it directly: macro-only values (LWS_PRE), structs with bitfields
 * (lws_client_connect_info's use), container_of for scheduled callbacks,
 * pointer-bumping header builders, and variadic calls (ioctl).
 */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

static inline size_t rs_lws_pre(void) { return LWS_PRE; }

/* Bytes waiting to be read on socket `fd` (FIONREAD; ioctl is variadic, which Swift cannot
 * call), or -1. */
static inline int rs_bytes_unread(int fd) {
    int n = 0;
    return ioctl(fd, FIONREAD, &n) == 0 ? n : -1;
}

/* A scheduled callback that knows its owner (lws only hands back the sul). */
typedef struct rs_timer {
    lws_sorted_usec_list_t sul; /* first member: the sul pointer is the timer pointer */
    void *owner;
} rs_timer;

static inline rs_timer *rs_timer_new(void *owner) {
    rs_timer *t = (rs_timer *)calloc(1, sizeof(rs_timer));
    if (t) t->owner = owner;
    return t;
}

static inline void *rs_timer_owner(lws_sorted_usec_list_t *sul) {
    return ((rs_timer *)sul)->owner;
}

static inline void rs_timer_schedule(struct lws_context *ctx, rs_timer *t, sul_cb_t cb, int64_t us) {
    lws_sul_schedule(ctx, 0, &t->sul, cb, (lws_usec_t)us);
}

static inline void rs_timer_cancel(rs_timer *t) { lws_sul_cancel(&t->sul); }

/*
 * What a context is created with and lws keeps pointers into until it is destroyed: the
 * protocol table (zero-terminated), the WebSocket protocol's name and the interface. One
 * allocation per context, freed by rs_context_memory_free after lws_context_destroy (a
 * process may make several contexts: widget-load does, one per run).
 */
typedef struct rs_context_memory {
    struct lws_protocols protocols[3];
    char *ws_protocol;
    char *iface;
    /* The operations vhost's (rs_add_operations_vhost): protocol 0 only, and its interface. */
    struct lws_protocols operations_protocols[2];
    char *operations_iface;
} rs_context_memory;

static inline void rs_context_memory_free(rs_context_memory *m) {
    if (!m) return;
    free(m->ws_protocol);
    free(m->iface);
    free(m->operations_iface);
    free(m);
}

static inline rs_context_memory *rs_context_memory_new(const char *ws_protocol, const char *iface) {
    rs_context_memory *m = (rs_context_memory *)calloc(1, sizeof(rs_context_memory));
    if (!m) return NULL;
    m->ws_protocol = strdup(ws_protocol);
    m->iface = iface ? strdup(iface) : NULL;
    if (!m->ws_protocol || (iface && !m->iface)) {
        rs_context_memory_free(m);
        return NULL;
    }
    return m;
}

/* lws_create_context, handing `m` to the caller on success and freeing it on failure. */
static inline struct lws_context *rs_create_context_keeping(struct lws_context_creation_info *info,
                                                            rs_context_memory *m, rs_context_memory **memory) {
    struct lws_context *ctx = lws_create_context(info);
    if (ctx) {
        *memory = m;
    } else {
        rs_context_memory_free(m);
    }
    return ctx;
}

/*
 * Creates a context with one vhost and two protocols: 0 ("http", `http_callback`) answers
 * every HTTP request and vets each WebSocket upgrade (LWS_CALLBACK_HTTP_CONFIRM_UPGRADE);
 * 1 (`ws_protocol`, `ws_callback`) is the WebSocket protocol, whose writes may be up to
 * `tx_packet_size` bytes each. There is no file mount: the
 * static files are served by `http_callback`, which adds security headers to every response
 * and checks each path against the real public directory.
 * `*memory` receives what lws keeps pointers into; free it with rs_context_memory_free once
 * the context is destroyed.
 * Returns NULL on failure (port taken, ...).
 */
static inline struct lws_context *rs_create_context(const char *host, int port, const char *ws_protocol,
                                                    lws_callback_function *http_callback,
                                                    lws_callback_function *ws_callback,
                                                    size_t rx_buffer_size, size_t tx_packet_size, void *user,
                                                    rs_context_memory **memory) {
    rs_context_memory *m = rs_context_memory_new(ws_protocol, host && host[0] ? host : NULL);
    if (!m) return NULL;
    struct lws_protocols *protocols = m->protocols;
    protocols[0].name = "http";
    protocols[0].callback = http_callback;
    protocols[1].name = m->ws_protocol;
    protocols[1].callback = ws_callback;
    protocols[1].per_session_data_size = sizeof(uint64_t);
    protocols[1].rx_buffer_size = rx_buffer_size;
    /* Without it lws hands send() at most rx_buffer_size (+ LWS_PRE + 4) bytes and keeps the rest
     * for later writable callbacks: one write of several messages would take several. */
    protocols[1].tx_packet_size = tx_packet_size;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = m->iface;
    info.protocols = protocols;
    info.user = user;
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_DISABLE_IPV6;
    if (host && strchr(host, ':')) info.options &= ~LWS_SERVER_OPTION_DISABLE_IPV6;
    /* Pings keep half-open connections from living forever. */
    static const lws_retry_bo_t retry = {
        .secs_since_valid_ping = 20,
        .secs_since_valid_hangup = 40,
    };
    info.retry_and_idle_policy = &retry;
    return rs_create_context_keeping(&info, m, memory);
}

/*
 * Writes a whole HTTP response: the status, `count` headers (lower-case names ending in ':'),
 * Content-Length `length`, and the body unless `head_only` (a HEAD request: the length is
 * still the body's). lws keeps what the socket does not take at once and sends it later.
 * Returns 0, or -1 if the connection failed.
 */
static inline int rs_http_respond(struct lws *wsi, unsigned int status, const char *const *names,
                                  const char *const *values, size_t count, const void *body,
                                  size_t length, int head_only) {
    unsigned char head[LWS_PRE + 4096];
    unsigned char *start = head + LWS_PRE, *p = start, *end = head + sizeof head - 1;
    char digits[24];
    if (lws_add_http_header_status(wsi, status, &p, end)) return -1;
    for (size_t i = 0; i < count; i++)
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)names[i], (const unsigned char *)values[i],
                                        (int)strlen(values[i]), &p, end))
            return -1;
    /* Written by name, not with lws_add_http_header_content_length: a HEAD response sends no
     * body, and lws would otherwise wait for one before the next request. */
    snprintf(digits, sizeof digits, "%zu", length);
    if (lws_add_http_header_by_name(wsi, (const unsigned char *)"content-length:", (const unsigned char *)digits,
                                    (int)strlen(digits), &p, end))
        return -1;
    if (lws_finalize_write_http_header(wsi, start, &p, end)) return -1;
    if (head_only || length == 0) return 0;
    unsigned char *buffer = (unsigned char *)malloc(LWS_PRE + length);
    if (!buffer) return -1;
    memcpy(buffer + LWS_PRE, body, length);
    int written = lws_write(wsi, buffer + LWS_PRE, length, LWS_WRITE_HTTP_FINAL);
    free(buffer);
    return written < (int)length ? -1 : 0;
}

/*
 * Writes bytes that are WebSocket frames already (several messages, each with its header) as they
 * are: on a ws connection lws adds no header to LWS_WRITE_RAW (and no extension is offered that
 * would have to transform the payload). Like lws_write, it keeps what the socket does not take.
 */
static inline int rs_write_frames(struct lws *wsi, unsigned char *frames, size_t len) {
    return lws_write(wsi, frames, len, LWS_WRITE_RAW);
}

/* Closes the connection at lws's next service: for a failed write outside a callback. */
static inline void rs_kill_soon(struct lws *wsi) { lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC); }

/* A request header's value (all its fragments), or "" if absent or longer than `size` - 1. */
static inline int rs_header(struct lws *wsi, enum lws_token_indexes token, char *dest, int size) {
    dest[0] = 0;
    if (lws_hdr_total_length(wsi, token) <= 0) return 0;
    int n = lws_hdr_copy(wsi, dest, size, token);
    if (n < 0) dest[0] = 0;
    return n < 0 ? 0 : n;
}

/* Whether the request carries `token` at all (an empty value counts). */
static inline int rs_has_header(struct lws *wsi, enum lws_token_indexes token) {
    return lws_hdr_total_length(wsi, token) > 0;
}

/*
 * Adds the vhost "operations" to a context made by rs_create_context: a listener of its own on
 * host:port with protocol 0 only (`http_callback`: /metrics, /healthz, /readyz, no WebSocket).
 * Returns the port it listens on (port 0 picks a free one), or -1 if it cannot listen.
 */
static inline int rs_add_operations_vhost(struct lws_context *ctx, rs_context_memory *m, const char *host, int port,
                                          lws_callback_function *http_callback) {
    m->operations_iface = host && host[0] ? strdup(host) : NULL;
    m->operations_protocols[0].name = "http";
    m->operations_protocols[0].callback = http_callback;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.vhost_name = "operations";
    info.port = port;
    info.iface = m->operations_iface;
    info.protocols = m->operations_protocols;
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_DISABLE_IPV6;
    if (host && strchr(host, ':')) info.options &= ~LWS_SERVER_OPTION_DISABLE_IPV6;
    struct lws_vhost *vh = lws_create_vhost(ctx, &info);
    return vh ? lws_get_vhost_listen_port(vh) : -1;
}

/* Whether the connection came in on the operations vhost. */
static inline int rs_on_operations_vhost(struct lws *wsi) {
    struct lws_vhost *vh = lws_get_vhost(wsi);
    const char *name = vh ? lws_get_vhost_name(vh) : NULL;
    return name && !strcmp(name, "operations");
}

/* The port the first vhost actually listens on (for --port 0). */
static inline int rs_listen_port(struct lws_context *ctx) {
    struct lws_vhost *vh = lws_get_vhost_by_name(ctx, "default");
    return vh ? lws_get_vhost_listen_port(vh) : -1;
}

static inline uint64_t *rs_session_id(void *user) { return (uint64_t *)user; }

/*
 * Load generator (widget-load): a context that only makes client connections, with one
 * protocol `ws_protocol` handled by `ws_callback`. NULL on failure.
 */
static inline struct lws_context *rs_create_client_context(const char *ws_protocol,
                                                           lws_callback_function *ws_callback,
                                                           size_t rx_buffer_size, void *user,
                                                           rs_context_memory **memory) {
    rs_context_memory *m = rs_context_memory_new(ws_protocol, NULL);
    if (!m) return NULL;
    m->protocols[0].name = m->ws_protocol;
    m->protocols[0].callback = ws_callback;
    m->protocols[0].rx_buffer_size = rx_buffer_size;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = m->protocols;
    info.user = user;
    return rs_create_context_keeping(&info, m, memory);
}

/*
 * Opens a WebSocket to ws://address:port/path asking for `ws_protocol`, with Host and
 * Origin headers for that address (the page's own). `tag` comes back from
 * lws_get_opaque_user_data. Returns 0 when the attempt started.
 */
static inline int rs_client_connect(struct lws_context *ctx, const char *address, int port,
                                    const char *path, const char *host_header,
                                    const char *origin, const char *ws_protocol, uintptr_t tag) {
    struct lws_client_connect_info ccinfo;
    memset(&ccinfo, 0, sizeof ccinfo);
    ccinfo.context = ctx;
    ccinfo.address = address;
    ccinfo.port = port;
    ccinfo.path = path;
    ccinfo.host = host_header;
    /* lws 4.1 writes "Origin: http://" followed by this: give it the origin without its scheme
     * (the server refuses a page whose Origin is not its own, and http://http://… is not). */
    if (origin && !strncmp(origin, "http://", 7)) origin += 7;
    ccinfo.origin = origin;
    ccinfo.protocol = ws_protocol;
    ccinfo.ietf_version_or_minus_one = -1;
    ccinfo.opaque_user_data = (void *)tag;
    return lws_client_connect_via_info(&ccinfo) ? 0 : -1;
}

static inline uintptr_t rs_client_tag(struct lws *wsi) {
    return (uintptr_t)lws_get_opaque_user_data(wsi);
}

#endif
