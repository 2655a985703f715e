import Foundation
import PMCache
import Synchronization

/// A writer's announcement in a storage other writers share (`writers/<id>.json`): it is running
/// since `started` and was alive at `refreshed`. Written when a sync, prune or repair starts,
/// refreshed every `refreshInterval` while it runs, removed when it ends; a killed writer's goes
/// stale after `liveFor` and is then only storage.
///
/// Deleting and relying on a listing exclude each other through them, as in Dekker's algorithm:
/// a prune or repair says it is deleting (`deleting`) before it lists or reads any manifest, then
/// looks for live writers, and deletes nothing at all if there is one (it may be between finding
/// an object in its listing, or putting one, and publishing the manifest that names it); a sync
/// says it is live first, then waits while another writer says it is deleting, and only then
/// lists. Whichever comes second sees the other, so no object a sync found listed, and no
/// manifest published after the prune read them, meets a deletion. This needs a store whose
/// listings show a put at once (S3 and Swift do).
struct WriterHeartbeat: Codable, Sendable, Equatable {
    var id: String
    var command: String
    /// Seconds since 1970, by the writer's clock.
    var started: Double
    var refreshed: Double
    /// Set while the writer deletes files: a sync starting meanwhile lists only after.
    var deleting: Bool? = nil

    static let folder = "writers"
    static let refreshInterval = 30.0
    /// A heartbeat refreshed less long ago than this is a live writer's: several missed
    /// refreshes, and clocks minutes apart, still count as alive.
    static let liveFor = 300.0
    /// A deleting writer refreshes like any other; one silent for this long was killed while
    /// deleting, and syncs stop waiting for it sooner than for `liveFor`.
    static let deletingFor = 3 * refreshInterval

    static func path(id: String) -> String { "\(folder)/\(id).json" }

    func isLive(at now: Double) -> Bool { now - refreshed < Self.liveFor }

    /// Every heartbeat in `storage` but `ownID`'s; unreadable ones are skipped (not ours).
    static func all(in storage: any CacheStorage, except ownID: String?) async throws -> [WriterHeartbeat] {
        try await stored(in: storage, except: ownID).map(\.beat)
    }

    /// The paths of heartbeats refreshed more than `age` seconds ago: writers killed long since,
    /// whose heartbeats a prune deletes.
    static func stale(in storage: any CacheStorage, olderThan age: Double,
                      now: Double = Date().timeIntervalSince1970) async throws -> [CachePath] {
        try await stored(in: storage, except: nil).filter { now - $0.beat.refreshed > max(age, liveFor) }.map { CachePath($0.path) }
    }

    private static func stored(in storage: any CacheStorage, except ownID: String?) async throws -> [(path: String, beat: WriterHeartbeat)] {
        var beats: [(path: String, beat: WriterHeartbeat)] = []
        for path in try await storage.list(folder: folder) where path != ownID.map(Self.path) {
            guard path.hasSuffix(".json"), let bytes = try await storage.read(path),
                  let beat = try? JSONDecoder().decode(WriterHeartbeat.self, from: Data(bytes)) else { continue }
            beats.append((path, beat))
        }
        return beats
    }

    /// Waits while a writer but `ownID` is deleting (refreshed within `deletingFor`), polling, at
    /// most `patience` seconds (a writer that hangs mid-delete must not stop every other).
    static func waitWhileOthersDelete(in storage: any CacheStorage, except ownID: String?, patience: Double = 120) async throws {
        let deadline = Date().timeIntervalSince1970 + patience
        while Date().timeIntervalSince1970 < deadline {
            let now = Date().timeIntervalSince1970
            guard try await all(in: storage, except: ownID).contains(where: { $0.deleting == true && now - $0.refreshed < deletingFor })
            else { return }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Whether any writer but `ownID` is live now.
    static func othersLive(in storage: any CacheStorage, except ownID: String?,
                           now: Double = Date().timeIntervalSince1970) async throws -> Bool {
        try await all(in: storage, except: ownID).contains { $0.isLive(at: now) }
    }
}

/// Keeps one writer's heartbeat fresh while it runs. Only in a storage writers share: a folder's
/// writers take its lock instead.
final class HeartbeatKeeper: Sendable {
    let id: String
    private let storage: any CacheStorage
    private let beat: Mutex<WriterHeartbeat>
    private let refresher = Mutex<Task<Void, Never>?>(nil)

    /// Puts the heartbeat (a failure to is the storage's: the command stops), then refreshes it
    /// in the background, best effort.
    static func start(_ storage: any CacheStorage, command: String) async throws -> HeartbeatKeeper? {
        guard storage.sharedByWriters else { return nil }
        let now = Date().timeIntervalSince1970
        let beat = WriterHeartbeat(id: UUID().uuidString.lowercased(), command: command, started: now, refreshed: now)
        try await put(beat, in: storage)
        let keeper = HeartbeatKeeper(beat: beat, storage: storage)
        keeper.startRefreshing()
        return keeper
    }

    private init(beat: WriterHeartbeat, storage: any CacheStorage) {
        id = beat.id
        self.storage = storage
        self.beat = Mutex(beat)
    }

    private func startRefreshing() {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(WriterHeartbeat.refreshInterval))
                guard !Task.isCancelled, let self else { break }
                try? await self.refresh()
            }
        }
        refresher.withLock { $0 = task }
    }

    deinit { stopRefreshing() }

    /// Stops refreshing, leaving the heartbeat to go stale (a command that failed on its way).
    func stopRefreshing() { refresher.withLock { $0?.cancel() } }

    /// Stops refreshing and removes the heartbeat: this writer has nothing in flight any more.
    func finish() async {
        let task = refresher.withLock { task in
            task?.cancel()
            return task
        }
        await task?.value
        _ = await storage.remove([CachePath(WriterHeartbeat.path(id: id))])
    }

    /// Says this writer is about to delete, then looks for other live writers. True when there
    /// is none: the flag stays up until `endDeleting`, and syncs starting meanwhile wait for it
    /// before they list. False (the flag down again) when there is one: delete nothing then.
    func beginDeleting() async throws -> Bool {
        try await refresh { $0.deleting = true }
        let othersLive: Bool
        do {
            othersLive = try await WriterHeartbeat.othersLive(in: storage, except: id)
        } catch {
            await endDeleting()
            throw error
        }
        if othersLive { await endDeleting() }
        return !othersLive
    }

    func endDeleting() async {
        try? await refresh { $0.deleting = nil }
    }

    private func refresh(_ change: (inout WriterHeartbeat) -> Void = { _ in }) async throws {
        let now = Date().timeIntervalSince1970
        let current = beat.withLock { beat in
            change(&beat)
            beat.refreshed = now
            return beat
        }
        try await Self.put(current, in: storage)
    }

    private static func put(_ beat: WriterHeartbeat, in storage: any CacheStorage) async throws {
        let bytes = try JSONEncoder().encode(beat)
        try await storage.publish(WriterHeartbeat.path(id: beat.id), .always) { append in try append(Array(bytes)) }
    }
}
