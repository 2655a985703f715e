#include "serve_shim.h"
#include "connection_watch.h"

#include <errno.h>
#include <stdarg.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <microhttpd.h>

struct pm_serve_daemon {
    struct MHD_Daemon *mhd;
    uint16_t port;
    pm_serve_handler handler;
    void *context;
    pm_connection_watch *watch;
};

static pm_watched_connection *watched(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info != NULL ? info->socket_context : NULL;
}

static void connection_changed(void *cls, struct MHD_Connection *connection, void **socket_context,
                               enum MHD_ConnectionNotificationCode code) {
    struct pm_serve_daemon *daemon = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = info != NULL ? pm_watch_connected(daemon->watch, info->connect_fd) : NULL;
    } else if (*socket_context != NULL) {
        pm_watch_closed(daemon->watch, *socket_context);
        *socket_context = NULL;
    }
}

static void request_ended(void *cls, struct MHD_Connection *connection, void **request_state,
                          enum MHD_RequestTerminationCode code) {
    (void)request_state;
    struct pm_serve_daemon *daemon = cls;
    pm_watched_connection *watched_connection = watched(connection);
    if (code == MHD_REQUEST_TERMINATED_COMPLETED_OK && watched_connection != NULL)
        pm_watch_answer_sent(daemon->watch, watched_connection);
}

// MHD calls the handler once when the headers arrive and again when the (empty) body is
// complete; answering on the second call is the documented safe point. Request bodies are
// discarded: only GET and HEAD mean anything here, and Swift answers others with 405.
static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **request_state) {
    (void)upload_data;
    static int headers_seen;
    if (*request_state == NULL) {
        *request_state = &headers_seen;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    struct pm_serve_daemon *daemon = cls;
    pm_watched_connection *watched_connection = watched(connection);
    if (watched_connection != NULL) pm_watch_request_arrived(daemon->watch, watched_connection);
    return daemon->handler(daemon->context, connection, method, url, version) ? MHD_YES : MHD_NO;
}

// Keeps the path percent-encoded: Swift decodes it segment by segment, so an encoded slash or
// dot-dot can be told apart from a real one and refused.
static size_t keep_escaped(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls; (void)connection;
    return strlen(text);
}

static int listen_socket(const char *bind_address, uint16_t port, uint16_t *bound_port,
                         char *error, size_t error_size) {
    struct addrinfo hints = {0}, *address = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    char service[8];
    snprintf(service, sizeof service, "%u", (unsigned)port);
    int rc = getaddrinfo(bind_address, service, &hints, &address);
    if (rc != 0) {
        snprintf(error, error_size, "cannot use address %s: %s", bind_address, gai_strerror(rc));
        return -1;
    }
    int fd = socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC, address->ai_protocol);
    int on = 1;
    // The longest queue the kernel allows: a burst of connections the daemon refuses one by
    // one must not fill it, or the kernel drops a newcomer's SYN and its client waits a second
    // or more to try again.
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0
        || bind(fd, address->ai_addr, address->ai_addrlen) != 0 || listen(fd, SOMAXCONN) != 0) {
        snprintf(error, error_size, "cannot listen on %s port %u: %s", bind_address, (unsigned)port, strerror(errno));
        if (fd >= 0) close(fd);
        freeaddrinfo(address);
        return -1;
    }
    freeaddrinfo(address);
    // The idle timeout counts the time between successful sends, and an autotuned send buffer
    // (megabytes) can hold what a slow reader takes in minutes: with no cap on unsent bytes a
    // client that is still reading steadily looks idle and is cut. With one, every send
    // follows the reader's progress. Accepted sockets inherit it; a kernel without the option
    // only loses that precision.
    int unsent_low_water = 128 * 1024;
    setsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &unsent_low_water, sizeof unsent_low_water);
    struct sockaddr_storage local;
    socklen_t length = sizeof local;
    getsockname(fd, (struct sockaddr *)&local, &length);
    *bound_port = ntohs(local.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&local)->sin6_port
                                                    : ((struct sockaddr_in *)&local)->sin_port);
    return fd;
}

pm_serve_daemon *pm_serve_start(const char *bind_address, uint16_t port, pm_serve_limits limits,
                                pm_serve_handler handler, void *context, char *error, size_t error_size) {
    struct pm_serve_daemon *daemon = calloc(1, sizeof *daemon);
    if (daemon == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    daemon->handler = handler;
    daemon->context = context;
    int fd = listen_socket(bind_address, port, &daemon->port, error, error_size);
    if (fd < 0) {
        free(daemon);
        return NULL;
    }
    daemon->watch = pm_watch_start(limits.waiting_at_most, limits.request_deadline_seconds);
    if (daemon->watch == NULL) {
        snprintf(error, error_size, "cannot start the connection watch: %s", strerror(errno));
        close(fd);
        free(daemon);
        return NULL;
    }
    // epoll in a pool of threads: a connection costs a socket and a little memory, not a
    // thread, so thousands of slow or half-open ones leave the threads free for the rest.
    // MHD closes a connection beyond the per-IP limit right after accept(); at the total cap
    // a thread stops accepting until one of its connections closes. The watch closes
    // connections that are slow to send a request before they fill the cap.
    daemon->mhd = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL, access_handler, daemon,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
        MHD_OPTION_THREAD_POOL_SIZE, limits.threads > 0 ? limits.threads : 1,
        MHD_OPTION_CONNECTION_LIMIT, limits.max_connections > 0 ? limits.max_connections : 1,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.max_per_client,
        MHD_OPTION_CONNECTION_TIMEOUT, limits.idle_timeout_seconds,
        MHD_OPTION_UNESCAPE_CALLBACK, keep_escaped, NULL,
        MHD_OPTION_NOTIFY_CONNECTION, connection_changed, daemon,
        MHD_OPTION_NOTIFY_COMPLETED, request_ended, daemon,
        MHD_OPTION_SIGPIPE_HANDLED_BY_APP, 1,
        MHD_OPTION_END);
    if (daemon->mhd == NULL) {
        snprintf(error, error_size, "libmicrohttpd could not start: %s", errno ? strerror(errno) : "unknown error");
        pm_watch_stop(daemon->watch);
        close(fd);
        free(daemon);
        return NULL;
    }
    return daemon;
}

uint16_t pm_serve_port(const pm_serve_daemon *daemon) { return daemon->port; }

void pm_serve_stop(pm_serve_daemon *daemon) {
    if (daemon == NULL) return;
    MHD_stop_daemon(daemon->mhd);
    pm_watch_stop(daemon->watch);
    free(daemon);
}

const char *pm_serve_request_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

int pm_serve_respond(struct MHD_Connection *connection, unsigned status, int fd, uint64_t offset, uint64_t length,
                     const char *body, size_t body_length, const char *const *header_names,
                     const char *const *header_values, size_t header_count) {
    struct MHD_Response *response;
    if (fd >= 0 && length > 0) {
        response = MHD_create_response_from_fd_at_offset64(length, fd, offset);
        if (response == NULL) close(fd);
    } else {
        if (fd >= 0) close(fd);
        response = MHD_create_response_from_buffer(body_length, (void *)body, MHD_RESPMEM_MUST_COPY);
    }
    if (response == NULL) return 0;
    for (size_t i = 0; i < header_count; i++) {
        if (MHD_add_response_header(response, header_names[i], header_values[i]) != MHD_YES) {
            MHD_destroy_response(response);
            return 0;
        }
    }
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued == MHD_YES;
}
