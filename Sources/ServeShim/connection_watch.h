#pragma once
// Which of the daemon's connections are still waiting for a whole request, and since when, so
// that a connection that trickles its headers can be closed at a deadline and, when the
// connections are nearly all taken, the oldest waiting ones make room for newcomers. Private
// to the shim.
#include <stdbool.h>

typedef struct pm_connection_watch pm_connection_watch;
typedef struct pm_watched_connection pm_watched_connection;

/// `waiting_at_most`: connections held at once beyond which the oldest still waiting for its
/// request is closed. `request_deadline_seconds`: how long a connection may take to send a
/// whole request, from its start or from the end of its previous answer. Starts a thread that
/// enforces the deadline; NULL when that cannot be done.
pm_connection_watch *pm_watch_start(unsigned waiting_at_most, unsigned request_deadline_seconds);
/// Stops the thread and frees the watch; every connection must have been closed before.
void pm_watch_stop(pm_connection_watch *watch);

/// A connection was accepted on socket `fd`; older waiting ones may be closed to make room.
/// NULL when out of memory (the connection is then not watched).
pm_watched_connection *pm_watch_connected(pm_connection_watch *watch, int fd);
/// Its whole request has arrived: it is being answered, and no longer waits.
void pm_watch_request_arrived(pm_connection_watch *watch, pm_watched_connection *connection);
/// Its answer was sent and it is kept alive: it waits again, for its next request.
void pm_watch_answer_sent(pm_connection_watch *watch, pm_watched_connection *connection);
/// The daemon is about to close its socket; frees `connection`.
void pm_watch_closed(pm_connection_watch *watch, pm_watched_connection *connection);
