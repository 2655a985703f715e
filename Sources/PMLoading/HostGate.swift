import Foundation

/// Admits requests host by host (`HostLimits`): at most `perHost` in flight to one host, at its
/// `rate`, none while it is paused by a `Retry-After`. A request that may not go yet waits
/// here ("parks"); requests to other hosts are never held up by it.
///
/// A scheduler that keeps a bounded number of tasks (the sync's download window) asks `parking`
/// how many of them wait here, and `waitForParking` wakes it when one more does, so that tasks
/// stuck on a busy or paused host do not take the places of tasks other hosts could run.
public actor HostGate {
    private var traffic: HostTraffic
    private let epoch = ContinuousClock.now
    private var waiters: [String: [Waiter]] = [:]
    private var waiting = 0
    private var nextID = 0
    /// Hosts whose first waiter waits for a time (pause or token), and until when.
    private var deadlines: [String: Double] = [:]
    private var timer: (deadline: Double, task: Task<Void, Never>)?
    private var generation = 0
    private var watchers: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<HTTPError?, Never>
    }

    public init(limits: HostLimits) {
        traffic = HostTraffic(limits: limits)
    }

    /// Returns when a request to `origin` may start; `finish` must follow it. Throws
    /// `HTTPError.hostPaused` for a host that asked for too long a pause, `.cancelled` when the
    /// calling task is cancelled while it waits.
    public func admit(_ origin: String) async throws(HTTPError) {
        if waiters[origin, default: []].isEmpty {
            switch traffic.admission(origin, at: now) {
            case .go:
                traffic.start(origin, at: now)
                return
            case .refused:
                if let refusal = traffic.refusal(origin) { throw refusal }
            case .full, .wait:
                break
            }
        }
        let id = nextID
        nextID += 1
        let error = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<HTTPError?, Never>) in
                guard !Task.isCancelled else { return continuation.resume(returning: .cancelled) }
                waiters[origin, default: []].append(Waiter(id: id, continuation: continuation))
                waiting += 1
                generation += 1
                watchers.forEach { $0.continuation.resume() }
                watchers.removeAll()
                wake(origin)
            }
        } onCancel: {
            Task { await self.cancel(id, origin: origin) }
        }
        if let error { throw error }
    }

    /// Records at once what an answer asks of its host (a pause, or no more requests), before its
    /// request is `finish`ed: a request let go earlier and about to be sent then learns of it
    /// from `pauseLeft`.
    public func observe(_ origin: String, response: HTTPResponse) {
        traffic.observe(origin, status: response.status, retryAfter: response.headers["retry-after"], at: now, date: Date())
    }

    /// For a request `admit` let go that then waited for something else before it was sent: the
    /// seconds left of a pause its host asked for meanwhile (nil: it may go now). Throws the
    /// `HTTPError.hostPaused` of a host that meanwhile asked for more than `HostLimits.maxPause`.
    /// `finish` must still follow.
    public func pauseLeft(_ origin: String) throws(HTTPError) -> Double? {
        switch traffic.recheck(origin, at: now) {
        case .go, .full:
            return nil
        case .wait(let until):
            return max(0, until - now)
        case .refused(let seconds):
            throw traffic.refusal(origin) ?? .hostPaused(origin: origin, seconds: seconds, limit: traffic.limits.maxPause)
        }
    }

    /// The request `admit` let go is done; `response` is nil when none came. Returns the error
    /// for a host that has just asked for more than `HostLimits.maxPause`.
    @discardableResult
    public func finish(_ origin: String, response: HTTPResponse?) -> HTTPError? {
        let refusal = traffic.finish(origin, status: response?.status, retryAfter: response?.headers["retry-after"],
                                     at: now, date: Date())
        wake(origin)
        return refusal
    }

    /// Requests waiting here now, and a count that grows each time one more starts waiting.
    public func parking() -> (parked: Int, generation: Int) {
        (waiting, generation)
    }

    /// Returns once a request has started waiting after `generation` (at once if one has), or
    /// when the calling task is cancelled.
    public func waitForParking(after generation: Int) async {
        guard self.generation <= generation else { return }
        let id = nextID
        nextID += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                guard !Task.isCancelled else { return continuation.resume() }
                watchers.append((id, continuation))
            }
        } onCancel: {
            Task { await self.stopWatching(id) }
        }
    }

    private var now: Double {
        let elapsed = ContinuousClock.now - epoch
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Lets `origin`'s waiters go, first come first served, as far as its limits allow.
    private func wake(_ origin: String) {
        deadlines[origin] = nil
        while waiters[origin]?.isEmpty == false {
            switch traffic.admission(origin, at: now) {
            case .go:
                traffic.start(origin, at: now)
                resume(origin, first: 1, with: nil)
            case .full:
                return
            case .wait(let until):
                deadlines[origin] = until
                armTimer()
                return
            case .refused:
                resume(origin, first: waiters[origin]?.count ?? 0, with: traffic.refusal(origin))
                return
            }
        }
        waiters[origin] = nil
    }

    private func resume(_ origin: String, first count: Int, with error: HTTPError?) {
        guard var queue = waiters[origin] else { return }
        for waiter in queue.prefix(count) { waiter.continuation.resume(returning: error) }
        queue.removeFirst(count)
        waiting -= count
        waiters[origin] = queue.isEmpty ? nil : queue
    }

    /// One timer, for the earliest deadline.
    private func armTimer() {
        guard let earliest = deadlines.values.min() else {
            timer?.task.cancel()
            timer = nil
            return
        }
        if let timer, timer.deadline <= earliest { return }
        timer?.task.cancel()
        let delay = max(0, earliest - now)
        timer = (earliest, Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            guard !Task.isCancelled else { return }
            await self?.timerFired()
        })
    }

    private func timerFired() {
        timer = nil
        let due = deadlines.filter { $0.value <= now + 1e-6 }.keys
        for origin in due { wake(origin) }
        armTimer()
    }

    private func cancel(_ id: Int, origin: String) {
        guard var queue = waiters[origin], let index = queue.firstIndex(where: { $0.id == id }) else { return }
        queue.remove(at: index).continuation.resume(returning: .cancelled)
        waiting -= 1
        waiters[origin] = queue.isEmpty ? nil : queue
        if queue.isEmpty {
            deadlines[origin] = nil
            armTimer()
        }
    }

    private func stopWatching(_ id: Int) {
        guard let index = watchers.firstIndex(where: { $0.id == id }) else { return }
        watchers.remove(at: index).continuation.resume()
    }
}
