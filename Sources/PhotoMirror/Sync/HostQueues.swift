import PMLoading

/// The media URLs of a sync, queued by host: `next` hands out the first URL in feed order whose
/// host has fewer than `perHost` items out. A host with its share out (busy, paused, rate-limited)
/// is passed over, so the URLs after it in the feed start on other hosts instead of waiting
/// behind it. Pure; memory is one integer per URL besides the URLs themselves.
struct HostQueues {
    private let urls: [String]
    private let perHost: Int
    /// Per host: the indices of its URLs in feed order, and how far it has been handed out.
    private var queues: [[Int]] = []
    private var heads: [Int] = []
    private var out: [Int] = []
    private var handedOut = 0
    /// Hosts that have a URL left and room for it, by the index of that URL.
    private var ready = MinHeap()

    /// An item handed out; give it back to `finished`.
    struct Ticket: Sendable {
        let url: String
        let host: Int
    }

    init(_ urls: [String], perHost: Int) {
        self.urls = urls
        self.perHost = max(1, perHost)
        var hostIndex: [String: Int] = [:]
        for (index, url) in urls.enumerated() {
            let origin = Origin.of(url)
            if let host = hostIndex[origin] {
                queues[host].append(index)
            } else {
                hostIndex[origin] = queues.count
                queues.append([index])
            }
        }
        heads = Array(repeating: 0, count: queues.count)
        out = Array(repeating: 0, count: queues.count)
        for host in queues.indices { ready.push(queues[host][0], host) }
    }

    /// No URL left to hand out (some may still be out).
    var isEmpty: Bool { handedOut == urls.count }

    mutating func next() -> Ticket? {
        guard let (index, host) = ready.pop() else { return nil }
        heads[host] += 1
        out[host] += 1
        handedOut += 1
        offer(host)
        return Ticket(url: urls[index], host: host)
    }

    /// The item is done: its host has room for another.
    mutating func finished(_ ticket: Ticket) {
        let wasFull = out[ticket.host] == perHost
        out[ticket.host] -= 1
        if wasFull { offer(ticket.host) }
    }

    /// Puts `host` among the ready ones when it has a URL left and room for it. A host is in
    /// `ready` at most once: it leaves it in `next` and comes back only here.
    private mutating func offer(_ host: Int) {
        guard out[host] < perHost, heads[host] < queues[host].count else { return }
        ready.push(queues[host][heads[host]], host)
    }
}

/// A binary min-heap of (key, value) pairs by key.
private struct MinHeap {
    private var items: [(key: Int, value: Int)] = []

    mutating func push(_ key: Int, _ value: Int) {
        items.append((key, value))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].key < items[parent].key else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (Int, Int)? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left].key < items[smallest].key { smallest = left }
            if right < items.count, items[right].key < items[smallest].key { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return (top.key, top.value)
    }
}
