/// How many connections `serve` keeps open at once, from one client and in all, and how long
/// one may sit idle: what keeps a single client (a slowloris, a stuck proxy) from starving the
/// others.
public struct ConnectionLimits: Sendable, Equatable {
    /// Browsers open about 6 connections per host; this leaves room for several tabs or a few
    /// people behind one NAT address.
    public static let defaultPerClient = 64
    public static let defaultTotal = 1024
    /// Inactivity, not duration: a slow reader of a big original that takes a few bytes now and
    /// then is never cut, a client that sends half a request and stops gives its slot back soon.
    public static let idleTimeoutSeconds = 10
    /// A deadline, not inactivity: a whole request (headers and any body) within this long of
    /// the connection's start or of its previous answer, however steadily it trickles. A
    /// browser sends its headers in one packet.
    public static let requestDeadlineSeconds = 10
    /// The last connections below the total are kept for newcomers: past the rest, the one
    /// that has waited longest for its request is closed, so that a client that sends a whole
    /// request is always let in, however many others hold connections open.
    static let mostKeptForNewcomers = 64
    /// Descriptors besides connections: stdio, the listening socket, each thread's epoll and
    /// wake-up descriptors, the index and its journal.
    static let otherFiles = 64
    /// A connection holds its socket and, while it sends one, a file.
    static let filesPerConnection = 2

    /// Connections from one IP address; 0 means no limit.
    public let perClient: Int
    public let total: Int

    public init(perClient: Int = defaultPerClient, total: Int = defaultTotal) {
        (self.perClient, self.total) = (perClient, total)
    }

    /// Connections held at once beyond which the one that has waited longest for a whole
    /// request is closed: about a sixteenth of the total is kept for newcomers.
    public var waitingAtMost: Int { total - min(max(total / 16, 1), Self.mostKeptForNewcomers) }

    /// The open-file limit these limits need.
    public var openFilesNeeded: Int { total * Self.filesPerConnection + Self.otherFiles }

    /// These limits with the total lowered, if need be, so that its files fit `openFiles`.
    public func fitting(openFiles: Int) -> ConnectionLimits {
        let room = max((openFiles - Self.otherFiles) / Self.filesPerConnection, 1)
        return ConnectionLimits(perClient: perClient, total: min(total, room))
    }
}
