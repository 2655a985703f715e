import Foundation
import PMCache

/// `<cache>/.sync-state.json`: what the syncs keep that only the index holds and no manifest
/// says, so that an index rebuilt from the manifests and files (`verify --repair`) loses none of
/// it: each feed's last sync (the root page's order, and how recent its images are for prune),
/// when each feed may be polled again and which answered 410 Gone (`watch`), the gallery's size
/// and the last sync's counters (`stats`). Rewritten from the index after every sync and repair,
/// atomically; a dot file, so neither `serve` nor the nginx template hands it out.
///
/// Best effort both ways: a sync whose sidecar could not be written has lost nothing but what
/// a later rebuild would restore, and one written before a writer was killed is older than the
/// index, which only makes a rebuilt feed's sync time older (its images age sooner by a sync)
/// and a poll earlier. Nothing in it can make a rebuilt index name a file that is not there.
struct SyncState: Codable, Equatable, Sendable {
    static let path = ".sync-state.json"
    static let currentVersion = 1

    var version = SyncState.currentVersion
    var gallerySize: String?
    var lastSync: LastSyncCounters?
    /// By feed URL.
    var feeds: [String: Feed] = [:]
    /// By feed URL; a feed that never synced (its first answer a 410) can be here alone.
    var polls: [String: Poll] = [:]

    struct Feed: Codable, Equatable, Sendable {
        var lastSync: Double

        enum CodingKeys: String, CodingKey {
            case lastSync = "last_sync"
        }
    }

    struct Poll: Codable, Equatable, Sendable {
        var ttl: Double?
        var pollAfter: Double?
        var goneAt: Double?

        enum CodingKeys: String, CodingKey {
            case ttl
            case pollAfter = "poll_after"
            case goneAt = "gone_at"
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, feeds, polls
        case gallerySize = "gallery_size"
        case lastSync = "last_sync"
    }

    /// The polls as the index stores them.
    var feedPolls: [FeedPoll] {
        polls.sorted { $0.key < $1.key }.map {
            FeedPoll(url: $0.key, timeToLive: $0.value.ttl, pollAfter: $0.value.pollAfter, goneAt: $0.value.goneAt)
        }
    }

    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array(((try? encoder.encode(self)) ?? Data("{}".utf8)) + Data("\n".utf8))
    }

    /// Nil for bytes that are not a sidecar this version reads.
    static func decode(_ bytes: [UInt8]) -> SyncState? {
        guard let state = try? JSONDecoder().decode(SyncState.self, from: Data(bytes)),
              state.version <= currentVersion else { return nil }
        return state
    }
}

extension SyncState {
    /// What the index holds now.
    static func snapshot(of index: PhotoIndex) async throws -> SyncState {
        var state = SyncState()
        state.gallerySize = try await index.meta(MetaKey.gallerySize)
        state.lastSync = LastSyncCounters.decode(try await index.meta(MetaKey.lastSync))
        // By URL as the manifests give it (without secrets), which is what a rebuild looks up.
        for feed in try await index.feeds() { state.feeds[Redaction.url(feed.url)] = Feed(lastSync: feed.lastSync) }
        for (url, poll) in try await index.feedPolls() {
            state.polls[Redaction.url(url)] = Poll(ttl: poll.timeToLive, pollAfter: poll.pollAfter, goneAt: poll.goneAt)
        }
        return state
    }

    /// Writes the index's state beside it; a failure is not worth failing the writer over.
    static func save(from index: PhotoIndex, to storage: any CacheStorage) async {
        guard let state = try? await snapshot(of: index) else { return }
        _ = try? await storage.publish(path, .whenChanged) { append in try append(state.encoded()) }
    }

    static func load(from storage: any CacheStorage) async -> SyncState? {
        guard let bytes = try? await storage.read(path) else { return nil }
        return decode(bytes)
    }
}
