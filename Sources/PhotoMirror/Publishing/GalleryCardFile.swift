import Foundation
import PMCache
import PMImaging

/// `feeds/<key>/card.json`: a feed's entry on the root page, rendered, with the time it sorts
/// by. Written with the feed's pages; the root page is made from every card the storage holds,
/// so it lists the feeds of every writer sharing the storage, not only those of this index.
struct GalleryCardFile: Codable, Sendable {
    static let fileName = "card.json"
    static let version = 1

    var version = Self.version
    var key: String
    var lastSync: Double
    /// The card's `<li>`, its links relative to the cache root.
    var html: String
    /// The feed's title, for the root page's title when no gallery_title is set; nil in the
    /// cards of older writers.
    var title: String?

    enum CodingKeys: String, CodingKey {
        case version, key, html, title
        case lastSync = "last_sync"
    }

    static func path(feedKey: String) -> String {
        "\(CacheLayout.feedsFolder)/\(feedKey)/\(fileName)"
    }

    init(_ card: GalleryCard, base: ThumbnailSize) {
        key = card.record.key
        lastSync = card.record.lastSync
        title = card.record.displayTitle
        html = String(decoding: GalleryIndexPage.fragment(card, base: base), as: UTF8.self)
    }

    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data())
    }

    /// Nil for bytes that are not a card this version writes.
    static func decode(_ bytes: [UInt8]) -> GalleryCardFile? {
        guard let card = try? JSONDecoder().decode(GalleryCardFile.self, from: Data(bytes)), card.version == version else { return nil }
        return card
    }
}
