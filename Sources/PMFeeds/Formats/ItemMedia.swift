import Foundation

/// An item's images in the order they are found, each URL once (the first source found keeps it).
struct ItemMedia {
    private(set) var media: [FeedMedia] = []
    private var seen: Set<String> = []

    mutating func add(_ url: String?, _ source: FeedMedia.Source) {
        guard let url = FeedText.nonBlank(url), !HTMLImageAttributes.isDataURI(url), seen.insert(url).inserted else { return }
        media.append(FeedMedia(url: url, source: source))
    }

    mutating func add(_ urls: [String], _ source: FeedMedia.Source) {
        for url in urls { add(url, source) }
    }

    /// `references` resolved against `base`; what does not resolve is kept as written.
    static func resolved(_ references: [String], against base: URL?) -> [String] {
        references.map { reference in
            let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
            return URL(string: trimmed, relativeTo: base)?.absoluteString ?? trimmed
        }
    }
}
