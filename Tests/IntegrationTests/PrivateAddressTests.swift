import Foundation
import XCTest

/// Server-side request forgery: a feed at a public address may not lead the mirror to loopback
/// or private addresses. Traffic stays within 127.0.0.0/8: 127.0.0.2 stands for a public host
/// (`PHOTOMIRROR_TEST_PUBLIC_ADDRESSES`), 127.0.0.1 is the operator's own "admin" server.
final class PrivateAddressTests: XCTestCase {
    private let publicHost = Photomirror(environment: ["PHOTOMIRROR_TEST_PUBLIC_ADDRESSES": "127.0.0.2"])

    /// The admin server (127.0.0.1) holds a real photo at /admin/secret.jpg and a feed of its own;
    /// the public server (127.0.0.2) has a feed whose items reach for the admin one.
    private struct Sites {
        let admin: FixtureServer
        let publicServer: FixtureServer
        let publicFeed: String
        let localFeed: String
        let secret: String

        func stop() {
            admin.stop()
            publicServer.stop()
        }
    }

    private func sites() throws -> Sites {
        let adminSite = try FeedSite(photos: try Paths.photos(count: 2))
        let adminFolder = adminSite.root.appendingPathComponent("admin")
        try FileManager.default.createDirectory(at: adminFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: adminSite.root.appendingPathComponent("photos/\(adminSite.photoNames[0])"),
                                         to: adminFolder.appendingPathComponent("secret.jpg"))
        let admin = try FixtureServer(root: adminSite.root)
        try adminSite.writeFlickrFeed(at: "feed.json", items: [.init(title: "local", media: admin.url("photos/\(adminSite.photoNames[1])"))])

        let publicSite = try FeedSite(photos: try Paths.photos(count: 1))
        let publicServer = try FixtureServer(root: publicSite.root, host: "127.0.0.2")
        try publicSite.writeFlickrFeed(at: "feed.json", items: [
            .init(title: "public photo", media: publicServer.url("photos/\(publicSite.photoNames[0])")),
            .init(title: "redirect to loopback", media: publicServer.url("fault/redirect-to/\(admin.port)/admin/secret.jpg")),
            .init(title: "loopback literal", media: admin.url("admin/secret.jpg?direct")),
            .init(title: "IPv4-mapped loopback", media: "http://[::ffff:127.0.0.1]:\(admin.port)/admin/secret.jpg?mapped"),
            // A name, not a literal: the address it resolves to is what is checked.
            .init(title: "loopback name", media: "http://localhost:\(admin.port)/admin/secret.jpg?name"),
        ])
        return Sites(admin: admin, publicServer: publicServer, publicFeed: publicServer.url("feed.json"),
                     localFeed: admin.url("feed.json"), secret: admin.url("admin/secret.jpg"))
    }

    func testAPublicFeedCannotReachLoopbackAddresses() throws {
        let sites = try sites()
        defer { sites.stop() }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        // The local feed first: its connection to 127.0.0.1 may be kept for the public feed's images.
        let sync = try publicHost.run(["sync", "--cache", cache.path, "--jobs", "1", "--json", sites.localFeed, sites.publicFeed])
        XCTAssertEqual(sync.status, 1, sync.stderr)
        let feeds = try CacheInspection.feeds(fromSummary: sync.stdout)
        let local = try CacheInspection.manifestItems(cache: cache, feed: try XCTUnwrap(feeds.first { $0["url"] as? String == sites.localFeed }))
        XCTAssertEqual(local.map { $0["status"] as? String }, ["ok"], "a loopback feed reaches loopback images")
        let items = try CacheInspection.manifestItems(cache: cache, feed: try XCTUnwrap(feeds.first { $0["url"] as? String == sites.publicFeed }))
        for item in items {
            let title = item["title"] as? String ?? ""
            if title == "public photo" {
                XCTAssertEqual(item["status"] as? String, "ok", "\(item)")
                continue
            }
            XCTAssertEqual(item["status"] as? String, "failed", title)
            let error = item["error"] as? String ?? ""
            XCTAssertTrue(error.contains("refused to connect to") && error.contains("a loopback address")
                          && error.contains("--allow-private-addresses"), "\(title): \(error)")
        }
        XCTAssertTrue(sync.stderr.contains("\(sites.secret): refused to connect to 127.0.0.1"), sync.stderr)
        XCTAssertFalse(sites.admin.requests.contains { $0.contains("/admin/") }, "\(sites.admin.requests)")
    }

    func testAPublicFeedThatRedirectsToLoopbackIsRefused() throws {
        let sites = try sites()
        defer { sites.stop() }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let feed = sites.publicServer.url("fault/redirect-to/\(sites.admin.port)/feed.json")

        let sync = try publicHost.run(["sync", "--cache", cache.path, feed])
        XCTAssertEqual(sync.status, 3, sync.stderr)
        XCTAssertTrue(sync.stderr.contains("refused to connect to 127.0.0.1"), sync.stderr)
        XCTAssertTrue(sites.admin.requests.isEmpty, "\(sites.admin.requests)")
    }

    func testAllowPrivateAddressesLiftsTheRule() throws {
        let sites = try sites()
        defer { sites.stop() }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let sync = try publicHost.run(["sync", "--cache", cache.path, "--allow-private-addresses", "--json", sites.publicFeed])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let items = try CacheInspection.manifestItems(cache: cache, feed: try CacheInspection.firstFeed(fromSummary: sync.stdout))
        XCTAssertEqual(items.filter { $0["status"] as? String == "ok" }.count, 5, "\(items)")
        XCTAssertTrue(sites.admin.requests.contains { $0.contains("/admin/secret.jpg") })
    }
}
