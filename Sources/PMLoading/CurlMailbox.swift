import CurlShim
import Synchronization

/// A fetch waiting for the loop thread to start it.
struct CurlJob: Sendable {
    let id: UInt64
    let request: HTTPRequest
    let continuation: CheckedContinuation<HTTPResponse, any Error>
}

/// The CURLM*. Owned by the loop thread; the one call made from other threads is
/// `curl_multi_wakeup`, which libcurl documents as thread-safe.
struct MultiHandle: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
}

/// The hand-off between fetching tasks and the loop thread.
///
/// Wakeups are sent while holding the lock: once `stopping` is set nobody else wakes the
/// multi handle, so the loop thread may clean it up without racing a late `fetch`. One wakeup
/// is outstanding at most: posts made before the loop takes the inbox ride on the first one's
/// (each is a `send` on libcurl's socket pair and a return from its poll).
final class CurlMailbox: Sendable {
    struct Inbox {
        var jobs: [CurlJob] = []
        var cancelled: Set<UInt64> = []
        var stopping = false
        /// A wakeup was sent that the loop has not yet answered by taking the inbox.
        var wakePending = false

        /// Wakes the loop unless a wakeup is outstanding already.
        mutating func wake(_ multi: MultiHandle) {
            guard !wakePending else { return }
            wakePending = true
            curl_multi_wakeup(multi.raw)
        }
    }

    private let inbox = Mutex(Inbox())
    private let nextID = Atomic<UInt64>(0)
    let multi: MultiHandle

    init(multi: MultiHandle) {
        self.multi = multi
    }

    func makeID() -> UInt64 {
        nextID.add(1, ordering: .relaxed).newValue
    }

    /// Must be called from the fetching task itself: a task cancelled before this point never
    /// reaches the loop, and one cancelled after it is seen by the loop with its job.
    func submit(_ job: CurlJob) {
        let accepted = inbox.withLock { inbox in
            guard !inbox.stopping, !Task.isCancelled else { return false }
            inbox.jobs.append(job)
            inbox.wake(multi)
            return true
        }
        if !accepted { job.continuation.resume(throwing: HTTPError.cancelled) }
    }

    /// Ids the loop does not know (already finished, or rejected by `submit`) are ignored there.
    func cancel(_ id: UInt64) {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.cancelled.insert(id)
            inbox.wake(multi)
        }
    }

    func stop() {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.stopping = true
            inbox.wake(multi)
        }
    }

    /// Everything posted since the last call; `stopping` stays set once set.
    func takeInbox() -> Inbox {
        inbox.withLock { inbox in
            let taken = inbox
            inbox.jobs.removeAll()
            inbox.cancelled.removeAll()
            inbox.wakePending = false
            return taken
        }
    }
}
