#include "bk_mhd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct MHD_Daemon *bk_mhd_start(const bk_mhd_config *config, MHD_AccessHandlerCallback handler, void *handler_context,
                                MHD_RequestCompletedCallback completed, void *completed_context,
                                void *(*uri_log)(void *, const char *, struct MHD_Connection *), void *uri_log_context,
                                MHD_NotifyConnectionCallback connections, void *connections_context,
                                MHD_AcceptPolicyCallback accept, void *accept_context) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *address = NULL;
#ifdef __linux__
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
#else
    /* epoll is Linux's: elsewhere the best poller libmicrohttpd has there. */
    unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
#endif
    if (config->host != NULL) {
        memset(&v4, 0, sizeof v4);
        memset(&v6, 0, sizeof v6);
        if (inet_pton(AF_INET, config->host, &v4.sin_addr) == 1) {
            v4.sin_family = AF_INET;
            v4.sin_port = htons(config->port);
            address = (struct sockaddr *)&v4;
        } else if (inet_pton(AF_INET6, config->host, &v6.sin6_addr) == 1) {
            v6.sin6_family = AF_INET6;
            v6.sin6_port = htons(config->port);
            address = (struct sockaddr *)&v6;
            flags |= MHD_USE_IPv6;
        } else {
            return NULL;
        }
    }
    struct MHD_OptionItem options[13];
    int n = 0;
#define OPTION(o, v, p)                                                                                                \
    do {                                                                                                               \
        options[n].option = (o);                                                                                       \
        options[n].value = (intptr_t)(v);                                                                              \
        options[n].ptr_value = (void *)(p);                                                                            \
        n++;                                                                                                           \
    } while (0)
    if (address != NULL) OPTION(MHD_OPTION_SOCK_ADDR, 0, address);
    if (config->threads > 1) OPTION(MHD_OPTION_THREAD_POOL_SIZE, config->threads, NULL);
    if (config->connection_limit > 0) OPTION(MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, NULL);
    if (config->per_ip_limit > 0) OPTION(MHD_OPTION_PER_IP_CONNECTION_LIMIT, config->per_ip_limit, NULL);
    OPTION(MHD_OPTION_CONNECTION_TIMEOUT, config->timeout_seconds, NULL);
    if (config->memory_limit > 0) OPTION(MHD_OPTION_CONNECTION_MEMORY_LIMIT, config->memory_limit, NULL);
    /* Options with a function and its context: the function in `value`, the context in `ptr_value`. */
    if (completed != NULL) OPTION(MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context);
    if (uri_log != NULL) OPTION(MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_context);
    if (connections != NULL) OPTION(MHD_OPTION_NOTIFY_CONNECTION, connections, connections_context);
    OPTION(MHD_OPTION_END, 0, NULL);
#undef OPTION
    /* The address is copied when the daemon binds, inside this call. */
    return MHD_start_daemon(flags, config->port, accept, accept_context, handler, handler_context, MHD_OPTION_ARRAY,
                            options, MHD_OPTION_END);
}

unsigned int bk_mhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info != NULL ? info->num_connections : 0;
}

uint16_t bk_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

void bk_mhd_stop(struct MHD_Daemon *daemon) { MHD_stop_daemon(daemon); }

struct bk_header_block {
    const char *start;
    const char *end;
    const char *last; /* the end of the header value that ends furthest into the block */
    int outside;      /* a name or value that is not in the block */
};

static enum MHD_Result bk_note_header(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct bk_header_block *block = context;
    const char *pieces[2] = {key, value};
    for (int i = 0; i < 2; i++) {
        const char *piece = pieces[i];
        if (piece == NULL) continue;
        if (piece < block->start || piece >= block->end) {
            block->outside = 1;
            continue;
        }
        const char *end = piece + strnlen(piece, (size_t)(block->end - piece));
        if (end > block->last) block->last = end;
    }
    return MHD_YES;
}

int bk_mhd_dropped_header_line(struct MHD_Connection *connection, const char *method) {
    if (method == NULL) return 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (info == NULL || info->header_size == 0) return 0;
    struct bk_header_block block = {method, method + info->header_size, NULL, 0};
    MHD_get_connection_values(connection, MHD_HEADER_KIND, bk_note_header, &block);
    /* A value libmicrohttpd moved out of the block is one it joined with a folded line (obs-fold,
       RFC 9112 §5.2): refused too, as a proxy in front may read it otherwise. */
    if (block.outside) return 1;
    if (block.last == NULL) return 0;
    /* A header line's end and the blank line after the last are at most four bytes, all zeroed. */
    if (block.end - block.last > 4) return 1;
    for (const char *p = block.last; p < block.end; p++) {
        if (*p != 0) return 1;
    }
    return 0;
}

static ssize_t bk_no_body(void *context, uint64_t position, char *buffer, size_t count) {
    (void)context;
    (void)position;
    (void)buffer;
    (void)count;
    return MHD_CONTENT_READER_END_OF_STREAM;
}

struct MHD_Response *bk_mhd_create_bodyless_response(void) {
    struct MHD_Response *response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64, bk_no_body, NULL, NULL);
    if (response == NULL) return NULL;
    if (MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END) != MHD_YES) {
        MHD_destroy_response(response);
        return NULL;
    }
    return response;
}

int bk_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info != NULL ? info->connect_fd : -1;
}

int bk_mhd_peer_gone(int fd) {
    if (fd < 0) return 0;
    char byte;
    ssize_t got = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    /* 0 is an orderly close of the peer's sending side, which a client may do and still wait for
       the answer (RFC 9112 §9.6): not gone. A reset or another error is. */
    if (got < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : 1;
    return 0; /* a pipelined request waiting, or the half-close */
}

void bk_mhd_cut_query(const char *uri) {
    /* `uri` points into the connection's read buffer, which libmicrohttpd itself writes to (it ends
       the path at the `?` after this callback). Ending the query at its first byte leaves its own
       argument parser nothing to store. */
    char *query = uri != NULL ? strchr(uri, '?') : NULL;
    if (query != NULL) query[1] = '\0';
}
