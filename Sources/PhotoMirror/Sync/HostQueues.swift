import PMLoading

/// The media URLs of a sync, queued by host: `next` hands out the first URL in feed order whose
/// host has fewer than `perHost` items out. A host with its share out (busy, paused, rate-limited)
/// is passed over, so the URLs after it in the feed start on other hosts instead of waiting
/// behind it. URLs are appended as the sync reads them from the index, a page at a time; each is
/// dropped once handed out. Pure.
struct HostQueues {
    private let perHost: Int
    private var hostIndex: [String: Int] = [:]
    /// Per host: its URLs in feed order (with their place in the feed), and how far they have been
    /// handed out.
    private var queues: [[(order: Int, url: String)]] = []
    private var heads: [Int] = []
    private var out: [Int] = []
    private var appended = 0
    /// URLs appended and not yet handed out.
    private(set) var waiting = 0
    /// Hosts that have a URL left and room for it, by the feed order of that URL.
    private var ready = MinHeap()

    /// An item handed out; give it back to `finished`.
    struct Ticket: Sendable {
        let url: String
        let host: Int
    }

    init(perHost: Int) {
        self.perHost = max(1, perHost)
    }

    init(_ urls: [String], perHost: Int) {
        self.init(perHost: perHost)
        for url in urls { append(url) }
    }

    /// No URL left to hand out (some may still be out).
    var isEmpty: Bool { waiting == 0 }

    mutating func append(_ url: String) {
        let host = self.host(of: url)
        let hadNone = heads[host] == queues[host].count
        queues[host].append((appended, url))
        appended += 1
        waiting += 1
        if hadNone { offer(host) }
    }

    mutating func next() -> Ticket? {
        guard let (_, host) = ready.pop() else { return nil }
        let url = queues[host][heads[host]].url
        heads[host] += 1
        out[host] += 1
        waiting -= 1
        // Handed-out URLs go, so the queues hold what waits, not what the sync has seen.
        if heads[host] >= 256, heads[host] * 2 >= queues[host].count {
            queues[host].removeFirst(heads[host])
            heads[host] = 0
        }
        offer(host)
        return Ticket(url: url, host: host)
    }

    /// An item started without being queued (`EarlyStarts`), counted out like one `next` handed out.
    mutating func handOut(_ url: String) -> Ticket {
        let host = self.host(of: url)
        out[host] += 1
        return Ticket(url: url, host: host)
    }

    /// The item is done: its host has room for another.
    mutating func finished(_ ticket: Ticket) {
        let wasFull = out[ticket.host] >= perHost
        out[ticket.host] -= 1
        if wasFull { offer(ticket.host) }
    }

    private mutating func host(of url: String) -> Int {
        let origin = Origin.of(url)
        if let known = hostIndex[origin] { return known }
        let host = queues.count
        hostIndex[origin] = host
        queues.append([])
        heads.append(0)
        out.append(0)
        return host
    }

    /// Puts `host` among the ready ones when it has a URL left and room for it. A host is in
    /// `ready` at most once: it leaves it in `next` and comes back only here, when it gets room
    /// again (`finished`) or a URL when it had none left (`append`).
    private mutating func offer(_ host: Int) {
        guard out[host] < perHost, heads[host] < queues[host].count else { return }
        ready.push(queues[host][heads[host]].order, host)
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
