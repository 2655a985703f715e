import PMImaging

/// A card's strip fed by pages that are written out of order (`Publisher.writeFeedPages`): a
/// page's items go in only after those of every page before it, so the strip shows the newest
/// thumbnails whatever order the pages finish in. Pages that arrive once it is full are let go.
struct StripFromPages {
    private(set) var strip: GalleryCard.Strip
    /// Pages that arrived before a page that comes ahead of them in the feed, by number.
    private var waiting: [Int: GalleryFeed] = [:]
    private var next = 1

    init(base: ThumbnailSize) {
        strip = GalleryCard.Strip(base: base)
    }

    /// Page `number` (from 1) of the feed, its items as the page shows them.
    mutating func take(page number: Int, _ shown: GalleryFeed) {
        guard !strip.isFull else { return }
        waiting[number] = shown
        while let page = waiting.removeValue(forKey: next) {
            next += 1
            for item in page.items {
                guard strip.add(item, paths: page.paths) else { break }
            }
        }
        if strip.isFull { waiting.removeAll() }
    }
}
