import Testing
@testable import PMCache
@testable import PMImaging
@testable import PhotoMirror

/// Feed strings are untrusted: the gallery must show them as text, never as markup or script.
@Suite struct GallerySafetyTests {
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

    @Test func hostileFeedStringsRenderAsText() {
        let feed = FeedRecord(key: "k", url: "https://feed.example/", kind: "rss",
                              title: "<img src=x onerror=alert(1)>", link: "javascript:alert(2)",
                              attribution: "<b>Marvel</b>", etag: nil, lastModified: nil, lastSync: 0)
        let item = ItemRecord(itemID: "1", position: 0, title: "\"><script>alert(3)</script>", link: "javascript:alert(4)",
                              published: 0, dateTaken: nil, author: nil, tags: ["<i>tag</i>"],
                              description: "<script>alert(5)</script>", mediaURL: "https://m/1.jpg",
                              status: "ok", error: nil, sha256: "ab")
        let paths = StoredPaths(original: "originals/ab/ab.jpg", thumbnails: ["40x40": "thumbs/40x40/ab/ab.png"])
        let html = GalleryPage(sections: [.init(feed: feed, items: [item], paths: ["ab": paths])],
                               primarySize: ThumbnailSize(width: 40, height: 40)).render()
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("javascript:"))
        #expect(!html.contains("<b>Marvel"))
        #expect(html.contains("&lt;b&gt;Marvel&lt;/b&gt;"))
        #expect(html.contains("src=\"thumbs/40x40/ab/ab.png\" width=\"40\" height=\"40\""))
        #expect(html.contains("href=\"originals/ab/ab.jpg\""))
        #expect(html.contains("Content-Security-Policy"))
    }

    @Test func failedItemsShowTheirStatusNotABrokenImage() {
        let feed = FeedRecord(key: "k", url: "u", kind: "rss", title: "t", link: nil, attribution: nil,
                              etag: nil, lastModified: nil, lastSync: 0)
        let item = ItemRecord(itemID: "1", position: 0, title: "t", link: nil, published: nil, dateTaken: nil,
                              author: nil, tags: [], description: nil, mediaURL: "https://m/1.jpg",
                              status: "failed", error: "HTTP 404 Not Found", sha256: nil)
        let html = GalleryPage(sections: [.init(feed: feed, items: [item], paths: [:])],
                               primarySize: ThumbnailSize(width: 40, height: 40)).render()
        #expect(!html.contains("<img"))
        #expect(html.contains("title=\"HTTP 404 Not Found\""))
    }
}
