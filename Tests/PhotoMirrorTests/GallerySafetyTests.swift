import Testing
@testable import PMCache
@testable import PMImaging
@testable import PhotoMirror

/// Feed strings are untrusted: the gallery must show them as text, never as markup or script.
@Suite struct GallerySafetyTests {
    static let base = ThumbnailSize(width: 40, height: 40)

    @Test func escapesEveryMarkupCharacter() {
        #expect(HTML.escape(#"<script>alert("x")</script> & 'y'"#)
            == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;")
    }

    @Test(arguments: ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<b>", "file:///etc/passwd",
                      "//evil.example/x", "vbscript:x", ""])
    func onlyHTTPLinksBecomeLinks(link: String) {
        #expect(HTML.safeExternalLink(link) == nil)
    }

    @Test func httpLinksAreKeptEscaped() {
        #expect(HTML.safeExternalLink("https://example.org/?a=1&b=\"2\"") == "https://example.org/?a=1&amp;b=&quot;2&quot;")
    }

    static func hostileFeed() -> GalleryFeed {
        let feed = FeedRecord(key: "k", url: "https://feed.example/", kind: "rss",
                              title: "<img src=x onerror=alert(1)>", link: "javascript:alert(2)",
                              attribution: "<b>Marvel</b>", etag: nil, lastModified: nil, lastSync: 0)
        let item = ItemRecord(itemID: "1", position: 0, title: "\"><script>alert(3)</script>", link: "javascript:alert(4)",
                              published: 0, dateTaken: nil, author: "<i>me</i>", tags: ["<i>tag</i>"],
                              description: "<script>alert(5)</script>", mediaURL: "https://m/1.jpg",
                              status: .ok, error: nil, sha256: "ab")
        let paths = StoredPaths(original: "originals/ab/ab.jpg", thumbnails: ["40x40": "thumbs/40x40/ab/ab.png"])
        return GalleryFeed(record: feed, items: [item], paths: ["ab": paths])
    }

    static func pages(_ feed: GalleryFeed) -> [String] {
        [GalleryIndexPage(cards: [GalleryCardFile(GalleryCard(feed, base: base), base: base)]).render().text,
         FeedPage(feed: feed, items: feed.items[...], page: 1, pageCount: 1, base: base).render().text]
    }

    @Test func hostileFeedStringsRenderAsTextOnEveryPage() {
        for page in Self.pages(Self.hostileFeed()) {
            // The viewer's keys are the one script, allowed by its hash; no other may appear.
            let html = page.replacingOccurrences(of: "<script>\(ItemViewer.keys)</script>", with: "")
            #expect(!html.contains("<script"))
            #expect(!html.contains("<img src=x"))
            #expect(!html.contains("<i>"))
            #expect(!html.contains("javascript:"))
            #expect(!html.contains("<b>Marvel"))
            #expect(html.contains("&lt;b&gt;Marvel&lt;/b&gt;"))
            #expect(html.contains("Content-Security-Policy"))
            #expect(html.contains("default-src 'none'"))
        }
    }

    @Test func linksAreRelativeToEachPage() {
        let pages = Self.pages(Self.hostileFeed())
        #expect(pages[0].contains("src=\"thumbs/40x40/ab/ab.png\" width=\"40\" height=\"40\""))
        #expect(pages[0].contains("href=\"feeds/k/index.html\""))
        #expect(pages[1].contains("src=\"../../thumbs/40x40/ab/ab.png\" width=\"40\" height=\"40\""))
        #expect(pages[1].contains("href=\"../../originals/ab/ab.jpg\""))
        #expect(pages[1].contains("href=\"../../index.html\""))
        for html in pages {
            #expect(!html.contains("href=\"/"))
            #expect(!html.contains("src=\"/"))
        }
    }

    @Test func failedItemsShowTheirStatusNotABrokenImage() {
        let feed = FeedRecord(key: "k", url: "u", kind: "rss", title: "t", link: nil, attribution: nil,
                              etag: nil, lastModified: nil, lastSync: 0)
        let item = ItemRecord(itemID: "1", position: 0, title: "t", link: nil, published: nil, dateTaken: nil,
                              author: nil, tags: [], description: nil, mediaURL: "https://m/1.jpg",
                              status: .failed, error: "HTTP 404 Not Found", sha256: nil)
        let gallery = GalleryFeed(record: feed, items: [item], paths: [:])
        for html in Self.pages(gallery) { #expect(!html.contains("<img")) }
        let page = Self.pages(gallery)[1]
        #expect(page.contains("title=\"HTTP 404 Not Found\""))
        #expect(page.contains(">failed</div>"))
    }
}
