import PMCache
import PMImaging
import PMSupport

/// The digest of everything a feed's manifest, JSON Feed and pages are written from, but the
/// sync time: the feed's own fields, its item rows and the thumbnail sizes. Equal digests and
/// no file written for any of the feed's images mean the feed's files would come out byte for
/// byte the same, so a sync leaves them (and their HTTP validators) alone. Pure.
enum FeedContent {
    static func digest(record: FeedRecord, items: [ItemRecord], sizes: [ThumbnailSize]) -> String {
        var digest = Digest(record: record, sizes: sizes, itemCount: items.count)
        for item in items { digest.add(item) }
        return digest.finish()
    }

    /// The digest taken an item at a time, in feed order, so that a feed's rows can be read a
    /// page at a time: `itemCount` items must follow.
    struct Digest: ~Copyable {
        private var fields = FieldHasher()

        init(record: FeedRecord, sizes: [ThumbnailSize], itemCount: Int) {
            // Changed whenever the same rows come out as other files, so that a cache written by
            // another version is republished once instead of keeping files this one would not write.
            fields.add("photomirror feed content 3")
            for text in [record.url, record.kind, record.title] { fields.add(text) }
            fields.add(record.link)
            fields.add(record.attribution)
            fields.add(record.imageURL)
            fields.add(record.imageSHA256)
            fields.add(record.warnings.count)
            for warning in record.warnings { fields.add(warning) }
            fields.add(sizes.map(\.description).joined(separator: ","))
            fields.add(itemCount)
        }

        mutating func add(_ item: ItemRecord) {
            fields.add(item.itemID)
            fields.add(item.position)
            fields.add(item.title)
            fields.add(item.link)
            fields.add(item.published)
            fields.add(item.dateTaken)
            fields.add(item.author)
            fields.add(item.tags.count)
            for tag in item.tags { fields.add(tag) }
            fields.add(item.description)
            fields.add(item.moreMedia.count + (item.mediaURL == nil ? 0 : 1))
            for media in item.allMedia {
                fields.add(media.url)
                fields.add(media.source)
                fields.add(media.status.rawValue)
                fields.add(media.error)
                fields.add(media.sha256)
            }
            if item.mediaURL == nil {
                fields.add(item.status.rawValue)
                fields.add(item.error)
            }
        }

        consuming func finish() -> String { fields.finish() }
    }
}

/// SHA-256 over a sequence of fields, each framed by a type tag and its length, so that no two
/// different sequences hash the same bytes ("ab","c" vs "a","bc"; nil vs "").
private struct FieldHasher: ~Copyable {
    init() {}

    private var hasher = SHA256Hasher()
    private var pending: [UInt8] = []

    mutating func add(_ text: String?) {
        guard let text else { return tag(0) }
        tag(1)
        length(text.utf8.count)
        pending.append(contentsOf: text.utf8)
        drainIfLarge()
    }

    mutating func add(_ number: Double?) {
        guard let number else { return tag(0) }
        tag(2)
        withUnsafeBytes(of: number.bitPattern.littleEndian) { pending.append(contentsOf: $0) }
    }

    mutating func add(_ number: Int) {
        tag(3)
        length(number)
    }

    consuming func finish() -> String {
        hasher.update(pending)
        return hasher.finalizeHex()
    }

    private mutating func tag(_ value: UInt8) { pending.append(value) }

    private mutating func length(_ value: Int) {
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: value).littleEndian) { pending.append(contentsOf: $0) }
    }

    private mutating func drainIfLarge() {
        guard pending.count >= 1 << 16 else { return }
        hasher.update(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
