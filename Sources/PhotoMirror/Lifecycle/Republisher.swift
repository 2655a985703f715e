import Foundation
import PMCache
import PMImaging

/// Rewrites manifests and the gallery after rows changed outside a sync (prune, repair), with
/// the thumbnail size the last sync published (`meta.gallery_size`), so a prune doesn't switch
/// the gallery to another size.
struct Republisher: Sendable {
    let cache: OpenCache

    /// Feeds rewritten at once: one reads its rows from the index while the other's pages are
    /// rendered and written, so a prune that touched 85 feeds keeps both cores busy.
    static let feedsAtOnce = 2

    /// `known`: the files of every image as the caller holds them (a prune's rows, less the ones
    /// it dropped), so each feed's items are read without joining them to their files.
    /// `carding: false` makes no card for a feed that has none (a sync's feed whose pages are not
    /// written yet).
    func republish(feedKeys: some Sequence<String>, known: KnownFiles? = nil, carding: Bool = true) async throws {
        let feedKeys = Array(feedKeys)
        let publisher = try await makePublisher(known: known)
        let now = Date().timeIntervalSince1970
        try await publisher.publishGalleryShell()
        try await withThrowingTaskGroup(of: Void.self) { group in
            var keys = feedKeys.sorted().makeIterator()
            func startNext() {
                guard let key = keys.next() else { return }
                group.addTask { _ = try await publisher.writeFeedFiles(feedKey: key, updatedAt: now) }
            }
            for _ in 0..<Self.feedsAtOnce { startNext() }
            while try await group.next() != nil { startNext() }
        }
        try await publisher.publishGalleryIndex(carding: carding)
        try await cache.index.documentsWritten(feedKeys: feedKeys)
    }

    func republishAll() async throws {
        try await republish(feedKeys: try await cache.index.feeds().map(\.key))
    }

    /// The documents a writer killed after dropping rows left unwritten (`PhotoIndex.owedDocuments`),
    /// written before this writer deletes anything. Feeds no longer in the index are let go.
    func payOwedDocuments() async throws {
        let owed = try await cache.index.owedDocuments()
        guard !owed.isEmpty else { return }
        let known = Set(try await cache.index.feeds().map(\.key))
        try await republish(feedKeys: owed.intersection(known))
        try await cache.index.documentsWritten(feedKeys: owed)
    }

    private func makePublisher(known: KnownFiles?) async throws -> Publisher {
        let stored = try await cache.index.meta(MetaKey.gallerySize).flatMap(ThumbnailSize.init(variant:))
        return Publisher(cache: cache, sizes: [stored ?? ThumbnailSize(width: 40, height: 40)], known: known)
    }
}
