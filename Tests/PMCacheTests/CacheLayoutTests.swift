import Testing
@testable import PMCache

@Suite struct CacheLayoutTests {
    let sha = "5c30118205982da441bf7e6a1ada636a8a0be879408140b3148280c665ed6bce"

    @Test func originalsFanOutByTheFirstTwoHexDigits() {
        #expect(CacheLayout.originalPath(sha256: sha, fileExtension: "jpg") == "originals/5c/\(sha).jpg")
    }

    @Test func thumbnailsAreKeyedByOriginalHashAndSize() {
        #expect(CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40") == "thumbs/40x40/5c/\(sha).png")
        #expect(CacheLayout.thumbnailPath(originalSHA256: sha, size: "80x80") != CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40"))
    }

    @Test func feedKeysAreStableShortAndDistinct() {
        let key = CacheLayout.feedKey(url: "https://example.org/feed")
        #expect(key.count == 16)
        #expect(key == CacheLayout.feedKey(url: "https://example.org/feed"))
        #expect(key != CacheLayout.feedKey(url: "https://example.org/feed2"))
        #expect(CacheLayout.manifestPath(feedKey: key) == "feeds/\(key)/manifest.json")
        #expect(CacheLayout.jsonFeedPath(feedKey: key) == "feeds/\(key)/feed.json")
    }

    @Test func rootLosesTrailingSlashes() {
        #expect(CacheLayout(root: "/tmp/cache//").absolute("index.html") == "/tmp/cache/index.html")
        #expect(CacheLayout(root: "/").root == "/")
    }

    @Test(arguments: [
        (nil, ["PHOTOMIRROR_CACHE": "/p", "XDG_CACHE_HOME": "/x", "HOME": "/h"], "/p"),
        ("/explicit", ["PHOTOMIRROR_CACHE": "/p"], "/explicit"),
        (nil, ["XDG_CACHE_HOME": "/x", "HOME": "/h"], "/x/photomirror"),
        (nil, ["XDG_CACHE_HOME": "relative", "HOME": "/h"], "/h/.cache/photomirror"),
        (nil, ["HOME": "/h"], "/h/.cache/photomirror"),
    ] as [(String?, [String: String], String)])
    func cacheRootFollowsXDG(explicit: String?, environment: [String: String], expected: String) {
        #expect(CacheRoot.resolve(explicit: explicit, environment: environment) == expected)
    }

    @Test func noHomeNoCache() {
        #expect(CacheRoot.resolve(explicit: nil, environment: [:]) == nil)
    }
}
