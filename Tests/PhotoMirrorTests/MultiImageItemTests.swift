import Foundation
import Testing
@testable import PMCache
@testable import PMFeeds
@testable import PhotoMirror

/// An item with several images: the first on the item's own fields (what single-image clients
/// read), every one in `media`, each with its own outcome.
@Suite struct MultiImageItemTests {
    let feedItem = FeedItem(id: "1", title: "t", media: [
        FeedMedia(url: "https://m/a.jpg", source: .enclosure),
        FeedMedia(url: "https://m/b.png", source: .html),
        FeedMedia(url: "https://m/c.jpg", source: .itunesImage),
    ])

    @Test func theFirstImageIsTheItemsAndTheRestFollowInOrder() {
        let feed = ParsedFeed(kind: .rss, title: "f", items: [feedItem])
        let records = ItemRecords.make(feed: feed, outcomes: [
            "https://m/a.jpg": .stored(sha256: "aa", downloaded: true, bytes: 1),
            "https://m/b.png": .failed(reason: "HTTP 404"),
            "https://m/c.jpg": .stored(sha256: "cc", downloaded: false, bytes: 0),
        ])
        let item = try! #require(records.first)
        #expect(item.mediaURL == "https://m/a.jpg" && item.mediaSource == "enclosure" && item.status == .ok && item.sha256 == "aa")
        #expect(item.moreMedia.map(\.url) == ["https://m/b.png", "https://m/c.jpg"])
        #expect(item.moreMedia.map(\.status) == [.failed, .ok])
        #expect(item.moreMedia[0].error == "HTTP 404" && item.moreMedia[1].sha256 == "cc")
        #expect(item.allMedia.map(\.source) == ["enclosure", "html", "itunes:image"])
    }

    @Test func anItemWithoutImagesIsNoImageNeverFailed() {
        let feed = ParsedFeed(kind: .rss, title: "f", items: [FeedItem(id: "2", title: "text only", noImageReason: "none")])
        let item = ItemRecords.make(feed: feed, outcomes: [:])[0]
        #expect(item.status == .noImage && item.error == "none" && item.allMedia.isEmpty)
    }

    @Test func theManifestListsEveryImageWithItsFiles() throws {
        let feed = FeedRecord(key: "k", url: "https://f/", kind: "rss", title: "F", link: nil, attribution: nil,
                              etag: nil, lastModified: nil, lastSync: 1, imageURL: "https://f/logo.png", imageSHA256: "ll",
                              warnings: ["read as windows-1252"])
        let item = ItemRecords.make(feed: ParsedFeed(kind: .rss, title: "f", items: [feedItem]), outcomes: [
            "https://m/a.jpg": .stored(sha256: "aa", downloaded: true, bytes: 1),
            "https://m/b.png": .failed(reason: "HTTP 404"),
            "https://m/c.jpg": .stored(sha256: "cc", downloaded: true, bytes: 1),
        ])
        let paths = ["aa": StoredPaths(original: "originals/aa.jpg", thumbnails: ["40x40": "thumbs/aa.png"]),
                     "cc": StoredPaths(original: nil, thumbnails: ["40x40": "thumbs/cc.png"]),
                     "ll": StoredPaths(original: "originals/ll.png", thumbnails: ["40x40": "thumbs/ll.png"])]
        let bytes = ManifestWriter.bytes(feed: feed, updatedAt: 1, items: item, paths: paths, primarySize: "40x40")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
        #expect(manifest.warnings == ["read as windows-1252"])
        #expect(manifest.image == Manifest.FeedImage(url: "https://f/logo.png", original: "originals/ll.png", thumbnail: "thumbs/ll.png",
                                                     sha256: "ll"))
        let decoded = try #require(manifest.items.first)
        #expect(decoded.mediaURL == "https://m/a.jpg" && decoded.original == "originals/aa.jpg")
        #expect(decoded.media.map(\.url) == ["https://m/a.jpg", "https://m/b.png", "https://m/c.jpg"])
        #expect(decoded.media.map(\.status) == ["ok", "failed", "ok"])
        #expect(decoded.media[1].error == "HTTP 404" && decoded.media[1].thumbnails.isEmpty)
        #expect(decoded.media[2].original == nil && decoded.media[2].thumbnails == ["40x40": "thumbs/cc.png"])
    }

    @Test func theCapKeepsTheFirstImagesOfEachItem() {
        var feed = ParsedFeed(kind: .rss, title: "f", items: [feedItem])
        feed.limitImages(perItem: 2)
        #expect(feed.items[0].media.map(\.url) == ["https://m/a.jpg", "https://m/b.png"])
    }

    @Test func theFeedPageShowsACountAndOnlyStoredThumbnails() {
        var item = ItemRecords.make(feed: ParsedFeed(kind: .rss, title: "f", items: [feedItem]), outcomes: [
            "https://m/a.jpg": .stored(sha256: "aa", downloaded: true, bytes: 1),
            "https://m/b.png": .failed(reason: "HTTP 404"),
            "https://m/c.jpg": .stored(sha256: "cc", downloaded: true, bytes: 1),
        ])[0]
        item.moreMedia[1].status = .ok
        var html = HTMLBuffer()
        MoreImages(media: item.moreMedia, paths: ["cc": StoredPaths(original: "originals/cc.jpg", thumbnails: ["40x40": "thumbs/cc.png"])],
                   base: .init(width: 40, height: 40), prefix: "../../").write(to: &html)
        let text = String(decoding: html.bytes, as: UTF8.self)
        #expect(text.contains("src=\"../../thumbs/cc.png\"") && text.contains("href=\"../../originals/cc.jpg\""))
        #expect(text.contains("+2 images"))
        #expect(!text.contains("b.png"))
    }
}
