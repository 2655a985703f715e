/// How many media items a sync works on at once: a bounded window over the feed's URLs, so
/// that memory and tasks stay the same for 100 000 URLs as for 100.
///
/// Twice as many items as transfers are active (`DownloadGate` keeps those at `--jobs`): a
/// connection freed by a finished download starts the next one while that image is decoded and
/// recorded, so at high latency decoding hides behind the network. Items parked at the host
/// gate (their host busy, paused or out of `--rate`) are not active: they make room for items
/// of other hosts, up to a ceiling on the items held at all. Each host gets at most twice its
/// `--per-host` share of the window, for the same reason as the factor two above.
struct Window: Sendable {
    let active: Int
    let ceiling: Int

    init(jobs: Int) {
        active = 2 * max(1, jobs)
        ceiling = 8 * max(1, jobs)
    }

    func perHost(_ perHost: Int) -> Int { 2 * max(1, perHost) }

    func hasRoom(running: Int, parked: Int) -> Bool {
        running - parked < active && running < ceiling
    }
}
