#include "connection_watch.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

struct pm_watched_connection {
    int fd;
    double waiting_since;
    bool waiting;
    /// Its socket was shut down: the daemon closes it on its next look, and it no longer counts.
    bool shed;
    pm_watched_connection *older, *newer;
};

struct pm_connection_watch {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool stopping;
    /// The waiting connections, oldest first: the order they are shed in.
    pm_watched_connection *oldest, *newest;
    unsigned held;
    unsigned waiting_at_most;
    double deadline;
};

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void append_waiting(pm_connection_watch *watch, pm_watched_connection *connection) {
    connection->waiting = true;
    connection->waiting_since = monotonic_seconds();
    connection->older = watch->newest;
    connection->newer = NULL;
    if (watch->newest != NULL) watch->newest->newer = connection; else watch->oldest = connection;
    watch->newest = connection;
}

static void remove_waiting(pm_connection_watch *watch, pm_watched_connection *connection) {
    if (!connection->waiting) return;
    if (connection->older != NULL) connection->older->newer = connection->newer; else watch->oldest = connection->newer;
    if (connection->newer != NULL) connection->newer->older = connection->older; else watch->newest = connection->older;
    connection->older = connection->newer = NULL;
    connection->waiting = false;
}

// Closing the socket here would race the daemon, which may reuse the number; a shutdown
// leaves the descriptor to it and makes its next poll see the end of the connection. The
// caller holds the lock, and the daemon tells `pm_watch_closed` (which takes it) before it
// closes the socket, so the descriptor is still this connection's.
static void shed(pm_connection_watch *watch, pm_watched_connection *connection) {
    remove_waiting(watch, connection);
    connection->shed = true;
    watch->held--;
    shutdown(connection->fd, SHUT_RDWR);
}

static void *enforce_deadline(void *argument) {
    pm_connection_watch *watch = argument;
    pthread_mutex_lock(&watch->lock);
    while (!watch->stopping) {
        double now = monotonic_seconds();
        while (watch->oldest != NULL && now - watch->oldest->waiting_since >= watch->deadline) shed(watch, watch->oldest);
        // Wake when the oldest waiting connection's time is up, or at least every second.
        double next = watch->oldest != NULL ? watch->oldest->waiting_since + watch->deadline : now + 1;
        if (next > now + 1) next = now + 1;
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        double wait = next - now + 0.01;
        until.tv_sec += (time_t)wait;
        until.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&watch->wake, &watch->lock, &until);
    }
    pthread_mutex_unlock(&watch->lock);
    return NULL;
}

pm_connection_watch *pm_watch_start(unsigned waiting_at_most, unsigned request_deadline_seconds) {
    pm_connection_watch *watch = calloc(1, sizeof *watch);
    if (watch == NULL) return NULL;
    watch->waiting_at_most = waiting_at_most;
    watch->deadline = request_deadline_seconds;
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_mutex_init(&watch->lock, NULL);
    pthread_cond_init(&watch->wake, &attributes);
    pthread_condattr_destroy(&attributes);
    int failed = pthread_create(&watch->thread, NULL, enforce_deadline, watch);
    if (failed != 0) {
        pthread_cond_destroy(&watch->wake);
        pthread_mutex_destroy(&watch->lock);
        free(watch);
        errno = failed;
        return NULL;
    }
    return watch;
}

void pm_watch_stop(pm_connection_watch *watch) {
    if (watch == NULL) return;
    pthread_mutex_lock(&watch->lock);
    watch->stopping = true;
    pthread_cond_signal(&watch->wake);
    pthread_mutex_unlock(&watch->lock);
    pthread_join(watch->thread, NULL);
    pthread_cond_destroy(&watch->wake);
    pthread_mutex_destroy(&watch->lock);
    free(watch);
}

pm_watched_connection *pm_watch_connected(pm_connection_watch *watch, int fd) {
    pm_watched_connection *connection = calloc(1, sizeof *connection);
    if (connection == NULL) return NULL;
    connection->fd = fd;
    pthread_mutex_lock(&watch->lock);
    watch->held++;
    append_waiting(watch, connection);
    // The newcomer is never the one shed: it has had no time to send anything yet.
    while (watch->held > watch->waiting_at_most && watch->oldest != connection) shed(watch, watch->oldest);
    pthread_mutex_unlock(&watch->lock);
    return connection;
}

void pm_watch_request_arrived(pm_connection_watch *watch, pm_watched_connection *connection) {
    pthread_mutex_lock(&watch->lock);
    remove_waiting(watch, connection);
    pthread_mutex_unlock(&watch->lock);
}

void pm_watch_answer_sent(pm_connection_watch *watch, pm_watched_connection *connection) {
    pthread_mutex_lock(&watch->lock);
    if (!connection->shed && !connection->waiting) append_waiting(watch, connection);
    pthread_mutex_unlock(&watch->lock);
}

void pm_watch_closed(pm_connection_watch *watch, pm_watched_connection *connection) {
    pthread_mutex_lock(&watch->lock);
    remove_waiting(watch, connection);
    if (!connection->shed) watch->held--;
    pthread_mutex_unlock(&watch->lock);
    free(connection);
}
