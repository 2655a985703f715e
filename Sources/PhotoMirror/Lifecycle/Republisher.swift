import Foundation
import PMCache
import PMImaging

/// Rewrites manifests and the gallery after rows changed outside a sync (prune, repair), with
/// the thumbnail size the last sync published (`meta.gallery_size`), so a prune doesn't switch
/// the gallery to another size.
struct Republisher: Sendable {
    let cache: OpenCache

    func republish(feedKeys: some Sequence<String>) async throws {
        let publisher = try await makePublisher()
        var cards: [String: GalleryCard] = [:]
        let now = Date().timeIntervalSince1970
        for key in feedKeys.sorted() { cards[key] = try await publisher.writeFeedFiles(feedKey: key, updatedAt: now) }
        try await publisher.publishGalleryIndex(fresh: cards)
    }

    func republishAll() async throws {
        try await republish(feedKeys: try await cache.index.feeds().map(\.key))
    }

    private func makePublisher() async throws -> Publisher {
        let stored = try await cache.index.meta(MetaKey.gallerySize).flatMap(ThumbnailSize.init(parsing:))
        return Publisher(cache: cache, sizes: [stored ?? ThumbnailSize(width: 40, height: 40)])
    }
}
