#ifndef BK_MHD_H
#define BK_MHD_H
#include <microhttpd.h>
#include <stddef.h>
#include <stdint.h>

/* Fixed-argument wrappers for libmicrohttpd's variadic functions, which Swift cannot call. */

typedef struct bk_mhd_config {
    const char *host;              /* a numeric IPv4 or IPv6 address ("127.0.0.1", "::1"); NULL: every address */
    uint16_t port;                 /* 0: any free port (read it back with bk_mhd_bound_port) */
    unsigned int threads;          /* worker threads, each polling its own connections (1: one) */
    unsigned int connection_limit; /* 0: libmicrohttpd's default */
    unsigned int per_ip_limit;     /* connections from one address at once (0: no limit) */
    unsigned int timeout_seconds;  /* a connection idle this long is closed (0: never) */
    size_t memory_limit;           /* bytes a connection may use for its request line and headers (0: 32 KiB) */
} bk_mhd_config;

/* Starts a daemon with an internal polling thread per worker (epoll), an inter-thread channel and
   suspend/resume (so that a request can be answered from another thread). `uri_log` sees each
   request's raw target first; what it returns is the request's first context pointer; `connections`
   hears of each connection's start and end (the end before its socket is closed); `accept` decides
   for each new connection whether it is taken (MHD_NO closes it at once). NULL when the host is not
   a numeric address, the port cannot be bound, or the options conflict. */
struct MHD_Daemon *bk_mhd_start(const bk_mhd_config *config, MHD_AccessHandlerCallback handler, void *handler_context,
                                MHD_RequestCompletedCallback completed, void *completed_context,
                                void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection),
                                void *uri_log_context, MHD_NotifyConnectionCallback connections,
                                void *connections_context, MHD_AcceptPolicyCallback accept, void *accept_context);

/* Ends the raw target `uri` that `uri_log` was given just after its `?`, so that libmicrohttpd parses
   no query arguments: the service reads the query from its own copy of the target, and
   libmicrohttpd 0.9.75 stalls a connection (no answer until its timeout) whose arguments — two
   thousand empty ones, `?&&&…` — do not fit the connection's memory pool. Call it from `uri_log`
   after copying `uri`. */
void bk_mhd_cut_query(const char *uri);

/* 1 when libmicrohttpd ended the request's header section early, at a header line with an empty
   name (`: b`) that was not the first header line, and so never reported that line. libmicrohttpd
   0.9.75 parses in place: after adding the line before, it cuts the empty-name line at its colon,
   and its loop then reads the line as the blank one that ends the headers (connection.c,
   process_broken_line and MHD_CONNECTION_HEADER_PART_RECEIVED); the bytes after it are read as the
   next request. Every header's name and value lies in the header block, which starts at `method`
   and is MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE bytes long, with each line's end and the final
   blank line zeroed (at most four bytes after the last value). A dropped line leaves its own bytes
   (or more zeros) after the last value. 1 too for a value libmicrohttpd moved out of the block,
   which it does only to join a line folded onto it (obs-fold, which RFC 9112 §5.2 lets a server
   refuse). 0 when there is no method to start from. Call from the access handler once the headers
   are in. */
int bk_mhd_dropped_header_line(struct MHD_Connection *connection, const char *method);

/* A response with no body and no length, for a 304: libmicrohttpd 0.9.75 writes `Content-Length: 0`
   on a 304 made from a buffer, which RFC 9110 §8.6 does not allow when the 200 had a body. Its size
   is unknown and chunked coding is off for it, so libmicrohttpd writes neither Content-Length nor
   Transfer-Encoding, sends no body (a 304 has none) and closes the connection after it, which is
   how HTTP/1.1 ends a message of unknown length. NULL when libmicrohttpd cannot make it. */
struct MHD_Response *bk_mhd_create_bodyless_response(void);

/* The connection's socket (-1 when unknown). */
int bk_mhd_connection_fd(struct MHD_Connection *connection);

/* 1 when the peer has reset the socket `fd` (a suspended connection, which libmicrohttpd does not
   read meanwhile), 0 while it is open or only its sending side is closed (a half-close, after
   which the client still reads the answer). Never blocks. */
int bk_mhd_peer_gone(int fd);

/* Open connections, over every worker. */
unsigned int bk_mhd_current_connections(struct MHD_Daemon *daemon);

/* The port the daemon listens on. */
uint16_t bk_mhd_bound_port(struct MHD_Daemon *daemon);

/* Stops the daemon, closing what is still open. (The service stops taking connections before that
   through its accept policy, not MHD_quiesce_daemon: libmicrohttpd 0.9.75 quiescing an epoll thread
   pool races with its own workers and can abort with "Failed to remove listen FD from epoll set".) */
void bk_mhd_stop(struct MHD_Daemon *daemon);

#endif
