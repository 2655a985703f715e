import Foundation
import Testing
@testable import PMCache
@testable import PMFeeds
@testable import PhotoMirror

/// The pure pieces around prune, verify and revalidation.
@Suite struct LifecycleLogicTests {
    @Test func pageLinksAreTheCacheRelativeOnesDecoded() {
        let html = """
        <a href="https://www.flickr.com/x">x</a><a class="thumb" href="../../originals/ab/ab%201.jpg">
        <img src="../../thumbs/40x40/ab/ab.png" srcset="../../thumbs/40x40/ab/ab.png 1x, ../../thumbs/80x80/ab/ab.png 2x">
        <a href="#top">top</a><a href="page-2.html">next</a><img src="data:image/png;base64,AAAA"><a href="/abs">
        """
        #expect(PageLinks.relative(in: html).sorted() == [
            "../../originals/ab/ab 1.jpg", "../../thumbs/40x40/ab/ab.png", "../../thumbs/40x40/ab/ab.png",
            "../../thumbs/80x80/ab/ab.png", "page-2.html",
        ])
    }

    /// A name counts only after a space and right before `="`, and a value never holds the start
    /// of another value of the same name; an unclosed value ends the page's links.
    @Test func pageLinksMatchWholeAttributeNames() {
        let html = #"<img data-src="a.png" xsrc="b.png" src="c.png" alt="x src=" title="d.png"><a href="e.html" srcset="f.png 1x"><img src="g"#
        #expect(PageLinks.relative(in: html) == ["c.png", " title=", "e.html", "f.png"])
        #expect(PageLinks.relative(in: #"<a href="x src=" src="y.png">"#) == [" src=", "x src="])
    }

    @Test func cacheRelativeLinksHaveNoSchemeAndNoRoot() {
        for link in ["a.png", "../../originals/ab/a.jpg", "page-2.html?x=1:2", "a/b:c", "x#y:z", "é/ü.png"] {
            #expect(PageLinks.isCacheRelative(link), "\(link)")
        }
        for link in ["", "#top", "/abs", "?q", "//host/x", "https://x/y", "data:image/png;base64,AA", "mailto:a@b", "a:b/c"] {
            #expect(!PageLinks.isCacheRelative(link), "\(link)")
        }
    }

    @Test func manifestLinksReadAsTheirTypesOrNotAtAll() throws {
        let manifest = #"""
        {"image": {"original": "originals/ab/a.png", "thumbnail": null},
         "items": [{"id": "1", "original": "originals/cd/c.jpg", "thumbnails": {"40x40": "thumbs/40x40/cd/c.png"},
                    "media": [{"original": "originals/ef/e.jpg", "thumbnails": {}}], "title": 7},
                   {"id": "2", "original": null}]}
        """#
        let links = try #require(ManifestLinks.read(Array(manifest.utf8)))
        #expect(links.paths == ["originals/ab/a.png", "originals/cd/c.jpg", "thumbs/40x40/cd/c.png", "originals/ef/e.jpg"])
        #expect(links.items.map(\.id) == ["1", "2"])
        for broken in [#"{"items": [{"id": 1}]}"#, #"{"items": [{"id": "1", "original": 3}]}"#, #"{"items": {}}"#,
                       #"{"items": [{"id": "1", "thumbnails": {"40x40": null}}]}"#, #"{"image": 1, "items": []}"#,
                       #"{"items": []"#, "[]",
                       // A text field is not read, but it must still be JSON.
                       #"{"items": [{"id": "1", "description": "a\qb"}]}"#, #"{"items": [{"id": "1", "title": [}]}"#] {
            #expect(ManifestLinks.read(Array(broken.utf8)) == nil, "\(broken)")
        }
    }

    @Test func aStoredFeedComesBackAsTheFeedItWasParsedFrom() {
        let record = FeedRecord(key: "k", url: "https://f/", kind: "rss", title: "T", link: "https://f/l",
                                attribution: "©", etag: "\"e\"", lastModified: nil, lastSync: 9)
        func item(_ id: String, _ position: Int, media: String?, status: ItemStatus, error: String? = nil) -> ItemRecord {
            ItemRecord(itemID: id, position: position, title: "t\(id)", link: nil, published: 100, dateTaken: nil,
                       author: "a", tags: ["x"], description: "d", mediaURL: media, status: status, error: error,
                       sha256: status == .ok ? "s" : nil)
        }
        let feed = StoredFeed.parsedFeed(record: record, kind: .rss, items: [
            item("1", 0, media: "https://m/1", status: .ok),
            item("2", 1, media: "https://m/2", status: .evictedOriginal),
            item("3", 2, media: nil, status: .noImage, error: "placeholder"),
            item("4", 3, media: "https://m/4", status: .failed, error: "HTTP 404"),
            item("item-4", 4, media: nil, status: .failed, error: "item 4: no link"),
        ])
        #expect(feed.title == "T" && feed.link == "https://f/l" && feed.attribution == "©")
        #expect(feed.items.map(\.id) == ["1", "2", "3", "4"])
        #expect(feed.items[2].noImageReason == "placeholder")
        #expect(feed.items[0].published == Date(timeIntervalSince1970: 100))
        #expect(feed.invalid == [InvalidItem(index: 4, id: "item-4", reason: "item 4: no link")])
        // Publishing it again gives the same rows (statuses come from this sync's outcomes).
        let records = ItemRecords.make(feed: feed, outcomes: [
            "https://m/1": .stored(sha256: "s", downloaded: false, bytes: 0),
            "https://m/2": .stored(sha256: "s2", downloaded: true, bytes: 9),
            "https://m/4": .failed(reason: "HTTP 404"),
        ])
        #expect(records.map(\.itemID) == ["1", "2", "3", "4", "item-4"])
        #expect(records.map(\.status.rawValue) == ["ok", "ok", "no-image", "failed", "failed"])
    }

    @Test func garbageIsTempFilesAndContentNoRowNames() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pm-garbage-\(UUID().uuidString)")
        for path in ["originals/ab/kept.jpg", "originals/ab/orphan.jpg", "thumbs/40x40/ab/.tmp-1", "feeds/k/manifest.json",
                     "feeds/k/feed.json"] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        let scan = try DiskScan.measure(root: root.path)
        func images(_ names: [String]) -> EvictionImages {
            var images = EvictionImages()
            for name in names { images.addOriginal(ImageHash(name), path: CachePath("originals/ab/\(name).jpg"), lastAccess: 0) }
            images.measure { scan.diskBytes(of: $0) }
            return images
        }
        let garbage = PruneRun.garbage(in: scan, images: images(["kept"]))
        #expect(garbage.map(\.path) == ["thumbs/40x40/ab/.tmp-1", "originals/ab/orphan.jpg"])
        #expect(garbage.allSatisfy { $0.diskBytes > 0 })
        // Every content file indexed: only the temp file, found without comparing paths.
        #expect(PruneRun.garbage(in: scan, images: images(["kept", "orphan"])).map(\.path) == ["thumbs/40x40/ab/.tmp-1"])
        // A compact scan knows each content file only by its path's hash: that is enough to count.
        let compact = try DiskScan.measure(root: root.path, compact: true)
        #expect(!compact.listsContentFiles && compact.contentFiles.isEmpty)
        #expect(PruneRun.garbage(in: compact, images: images(["kept", "orphan"])).map(\.path) == ["thumbs/40x40/ab/.tmp-1"])
        #expect(images(["kept"]).filesOnDisk == 1 && compact.contentFileCount == 2, "an orphan: the prune lists the files")
    }

    @Test func filesAreRemovedByFolderWithContentNamesSpelledOnTheFly() throws {
        let sha = "ab" + String(repeating: "0", count: 62)
        let paths: [CachePath] = [CachePath(CacheLayout.originalPath(sha256: sha, fileExtension: "jpg")),
                                  CachePath(CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40")),
                                  "originals/ab/.tmp-9", ".tmp-root"]
        let (grouped, jobs) = FileRemover.byFolder(paths + [paths[0]])
        #expect(jobs.map(\.folder) == ["originals/ab", "thumbs/40x40/ab", "originals/ab", ""])
        #expect(jobs.map(\.files.count) == [2, 1, 1, 1])
        #expect(grouped == [paths[0], paths[0], paths[1], paths[2], paths[3]], "each folder's paths adjacent")
    }

    @Test func goalRulesFollowTheMeasuredUsage() {
        #expect(GoalRule.prune(limit: 100, maxAge: 10).goal(usage: 50, now: 1000) == EvictionGoal(expireBefore: 990))
        #expect(GoalRule.prune(limit: 100, maxAge: 10).goal(usage: 101, now: 1000)
            == EvictionGoal(targetBytes: 80, expireBefore: 990), "the rule of a sync's prune")
        #expect(GoalRule.afterSync(limit: 100).goal(usage: 100, now: 0) == EvictionGoal())
        #expect(GoalRule.afterSync(limit: 100).goal(usage: 101, now: 0) == EvictionGoal(targetBytes: 80))
    }

    @Test func onlyFanOutFoldersAreRemovedWhenEmptied() {
        #expect(FileRemover.isFanOut("originals/ab"))
        #expect(FileRemover.isFanOut("thumbs/40x40/ab"))
        #expect(!FileRemover.isFanOut("thumbs/40x40"))
        #expect(!FileRemover.isFanOut("feeds/ab"))
        #expect(!FileRemover.isFanOut("originals"))
    }
}

@Suite struct ReferenceResolutionTests {
    @Test func linksResolveAgainstThePagesFolderAndNeverLeaveTheCache() {
        #expect(ReferenceCheck.resolve("../../originals/ab/x.jpg", from: "feeds/k") == "originals/ab/x.jpg")
        #expect(ReferenceCheck.resolve("page-2.html?x#top", from: "feeds/k") == "feeds/k/page-2.html")
        #expect(ReferenceCheck.resolve("./feeds/k/index.html", from: "") == "feeds/k/index.html")
        #expect(ReferenceCheck.resolve("../../../etc/passwd", from: "feeds/k") == nil)
        #expect(ReferenceCheck.resolve("feeds/k/", from: "") == "feeds/k/index.html")
    }
}
