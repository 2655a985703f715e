import Foundation
import Testing

/// The root page's title: gallery_title from the cache's config.json (else the user's), else the
/// feeds' own titles.
@Suite struct GalleryTitleTests {
    @Test func theRootPageIsTitledByTheSettingElseByItsFeed() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 1))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let user = try Paths.temporaryFolder()
        let pm = Photomirror(environment: ["XDG_CONFIG_HOME": user.path])
        #expect(try pm.run(["sync", "--cache", cache.path, server.url("feed.js")]).status == 0)
        var page = try String(contentsOf: cache.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("<title>Uploads tagged test</title>") && page.contains("<h1>Uploads tagged test</h1>"), "\(page)")

        try Data(#"{"gallery_title": "Holiday <photos>"}"#.utf8).write(to: cache.appendingPathComponent("config.json"))
        #expect(try pm.run(["sync", "--cache", cache.path, server.url("feed.js")]).status == 0)
        page = try String(contentsOf: cache.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("<title>Holiday &lt;photos&gt;</title>") && page.contains("<h1>Holiday &lt;photos&gt;</h1>"), "\(page)")
    }
}
