/// How politely a run treats each host (origin, see `Origin`): how many requests it may have
/// in flight there, how often it may ask, and how long a `Retry-After` it waits out.
public struct HostLimits: Sendable, Equatable {
    /// Requests in flight to one host at most (`--per-host`): six, as browsers and SDWebImage keep.
    public var perHost = 6
    /// Requests a second to one host at most (`--rate`); nil asks as fast as `perHost` allows.
    public var rate: Double?
    /// The longest `Retry-After` pause waited out. A host that asks for longer gets no further
    /// request in this run: its requests fail at once, naming the host and the delay it asked for.
    public var maxPause: Double = 30

    public init(perHost: Int = 6, rate: Double? = nil, maxPause: Double = 30) {
        self.perHost = max(1, perHost)
        self.rate = rate.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        self.maxPause = maxPause
    }
}
