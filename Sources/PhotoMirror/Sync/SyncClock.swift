import Foundation

/// The time of a sync's writes. `start` is after every last access the index held when the sync
/// began, and every time the sync records is at or after it: a media URL last used at or after
/// `start` is one this sync has done (`MediaLedger`), even when the clock went back since an
/// earlier sync.
struct SyncClock: Sendable {
    let start: Double

    init(start: Double = Date().timeIntervalSince1970) {
        self.start = start
    }

    /// A clock starting now, or just after `latest` (the index's latest media access) if that is later.
    static func after(_ latest: Double?) -> SyncClock {
        SyncClock(start: max(Date().timeIntervalSince1970, (latest ?? 0).nextUp))
    }

    func now() -> Double { max(start, Date().timeIntervalSince1970) }
}
