#ifndef SCROLL_WIDGETS_LWS_SHIM_H
#define SCROLL_WIDGETS_LWS_SHIM_H

/*
 * Thin C helpers for the Swift bridge. Everything here exists because Swift
 * cannot see it directly: macro-only values (LWS_PRE), structs with bitfields
 * (lws_http_mount, lws_client_connect_info's use), and container_of for scheduled
 * callbacks.
 */
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

static inline size_t rs_lws_pre(void) { return LWS_PRE; }

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
 * Creates a context with one vhost serving `public_dir` at "/" (index.html by
 * default) and the WebSocket protocol `ws_protocol` handled by `ws_callback`.
 * Memory given to lws lives as long as the process (one context per process).
 * Returns NULL on failure (port taken, bad directory, ...).
 */
static inline struct lws_context *rs_create_context(const char *host, int port,
                                                    const char *public_dir,
                                                    const char *ws_protocol,
                                                    lws_callback_function *ws_callback,
                                                    size_t rx_buffer_size, void *user) {
    struct lws_protocols *protocols = (struct lws_protocols *)calloc(3, sizeof(struct lws_protocols));
    struct lws_http_mount *mount = (struct lws_http_mount *)calloc(1, sizeof(struct lws_http_mount));
    if (!protocols || !mount) return NULL;
    protocols[0].name = "http-only";
    protocols[0].callback = lws_callback_http_dummy;
    protocols[1].name = strdup(ws_protocol);
    protocols[1].callback = ws_callback;
    protocols[1].per_session_data_size = sizeof(uint64_t);
    protocols[1].rx_buffer_size = rx_buffer_size;

    mount->mountpoint = "/";
    mount->mountpoint_len = 1;
    mount->origin = strdup(public_dir);
    mount->def = "index.html";
    mount->origin_protocol = LWSMPRO_FILE;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = host && host[0] ? strdup(host) : NULL;
    info.protocols = protocols;
    info.mounts = mount;
    info.user = user;
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_DISABLE_IPV6;
    if (host && strchr(host, ':')) info.options &= ~LWS_SERVER_OPTION_DISABLE_IPV6;
    /* Pings keep half-open connections from living forever. */
    static const lws_retry_bo_t retry = {
        .secs_since_valid_ping = 20,
        .secs_since_valid_hangup = 40,
    };
    info.retry_and_idle_policy = &retry;
    return lws_create_context(&info);
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
                                                           size_t rx_buffer_size, void *user) {
    struct lws_protocols *protocols = (struct lws_protocols *)calloc(2, sizeof(struct lws_protocols));
    if (!protocols) return NULL;
    protocols[0].name = strdup(ws_protocol);
    protocols[0].callback = ws_callback;
    protocols[0].rx_buffer_size = rx_buffer_size;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.user = user;
    return lws_create_context(&info);
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
