#pragma once
// libmicrohttpd for Swift: MHD_start_daemon is variadic and its access handler is called
// several times per request, so this shim starts the daemon, answers each request exactly
// once through one handler, and builds, queues and frees responses. Errors are returned,
// never printed. No path, header or policy logic lives here: Swift decides every answer.
#include <stddef.h>
#include <stdint.h>

struct MHD_Connection;
typedef struct pm_serve_daemon pm_serve_daemon;

/// Called once per request on one of the daemon's own threads, with the request path exactly
/// as the client sent it (percent-encoding intact, query string removed) and its protocol
/// version (`HTTP/1.1`). Must answer with pm_serve_respond and return its result.
typedef int (*pm_serve_handler)(void *context, struct MHD_Connection *connection,
                                const char *method, const char *raw_path, const char *version);

/// How much of the server one client, and all of them together, may hold.
typedef struct pm_serve_limits {
    /// The daemon's own threads; each polls its share of the connections with epoll, so an
    /// idle or half-open connection holds no thread.
    unsigned threads;
    /// Connections open at once over all clients; each thread takes an equal share. Further
    /// clients wait in the listen queue until one closes.
    unsigned max_connections;
    /// Connections open at once from one IP address; more are closed as soon as accepted.
    /// 0 means no limit.
    unsigned max_per_client;
    /// Seconds without a byte received or sent before a connection is closed.
    unsigned idle_timeout_seconds;
    /// Connections held at once beyond which the one that has waited longest for its request
    /// (headers, or a body) is closed, so that the last ones below max_connections stay free
    /// for newcomers.
    unsigned waiting_at_most;
    /// Seconds a connection may take to send a whole request, from its start or from the end
    /// of its previous answer, however steadily it trickles.
    unsigned request_deadline_seconds;
} pm_serve_limits;

/// Listens on bind_address:port (numeric IPv4 or IPv6; port 0 picks a free one) and serves
/// within `limits`. Returns NULL and fills `error` on failure.
pm_serve_daemon *pm_serve_start(const char *bind_address, uint16_t port, pm_serve_limits limits,
                                pm_serve_handler handler, void *context,
                                char *error, size_t error_size);
/// The port actually listened on.
uint16_t pm_serve_port(const pm_serve_daemon *daemon);
/// Stops accepting, finishes in-flight requests' threads and frees the daemon.
void pm_serve_stop(pm_serve_daemon *daemon);

/// A request header's value, or NULL. Valid until the response is queued.
const char *pm_serve_request_header(struct MHD_Connection *connection, const char *name);

/// Queues the response. The body is `length` bytes of `fd` from `offset` when fd >= 0 (the
/// fd is owned and closed by the shim, even on failure), else a copy of `body`.
/// Returns 1 when queued, 0 when not (the connection is then closed).
int pm_serve_respond(struct MHD_Connection *connection, unsigned status,
                     int fd, uint64_t offset, uint64_t length,
                     const char *body, size_t body_length,
                     const char *const *header_names, const char *const *header_values,
                     size_t header_count);
