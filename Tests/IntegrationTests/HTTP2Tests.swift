import Foundation
import XCTest

/// Syncs over TLS from nginx speaking HTTP/2, its self-signed certificate trusted through the
/// environment, with what nginx logged as the evidence: the protocol and the connection of
/// every request.
final class HTTP2Tests: XCTestCase {
    /// 20 copies of one photo under distinct names, served by nginx with `certificate`, and a
    /// feed naming them on the image host, reached at `imagePort` when given (a proxy's).
    private func site(certificate: SelfSignedCertificate,
                      imagePort: (NginxTLSServer) throws -> Int = { $0.ports.images }) throws -> NginxTLSServer {
        let site = try FeedSite(photos: try Paths.photos(count: 1))
        let photo = site.root.appendingPathComponent("photos/\(site.photoNames[0])")
        let names = (0..<20).map { "image-\($0).jpg" }
        for name in names {
            try FileManager.default.copyItem(at: photo, to: site.root.appendingPathComponent("photos/\(name)"))
        }
        let nginx = try NginxTLSServer(root: site.root, certificate: certificate)
        try site.writeFlickrFeed(at: "feed.js", base: "https://127.0.0.1:\(try imagePort(nginx))", names: names)
        return nginx
    }

    private func trusting(_ variable: String, _ certificate: SelfSignedCertificate) -> Photomirror {
        var photomirror = Photomirror()
        // Both set, so that whatever the test's own environment holds does not decide.
        photomirror.environment = ["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": ""]
        photomirror.environment[variable] = certificate.certificate.path
        return photomirror
    }

    /// The images' host is new to the sync when its 20 requests come, 8 allowed at once, and 50 ms
    /// away (a delay proxy), so all 8 are asked for while its first connection is still being
    /// set up: without waiting for it to offer HTTP/2, libcurl would open a connection for each.
    func testImagesMultiplexOverOneHTTP2ConnectionToTheirHost() throws {
        let certificate = try SelfSignedCertificate()
        var proxy: DelayProxy?
        let server = try site(certificate: certificate) { nginx in
            let started = try DelayProxy(upstream: nginx.ports.images, delayMilliseconds: 25)
            proxy = started
            return started.port
        }
        defer {
            proxy?.stop()
            server.stop()
        }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let sync = try trusting("CURL_CA_BUNDLE", certificate).run(
            ["sync", "--json", "--cache", cache.path, "--jobs", "16", "--per-host", "8",
             server.url("feed.js", port: server.ports.site)])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)) as? [String: Any]
        let feed = try XCTUnwrap((report?["feeds"] as? [[String: Any]])?.first, sync.stdout)
        XCTAssertEqual(feed["ok"] as? Int, 20)
        XCTAssertEqual(feed["downloaded"] as? Int, 20)

        server.stop()
        let requests = server.requests
        XCTAssertEqual(Set(requests.map(\.httpProtocol)), ["HTTP/2.0"], "\(requests)")
        XCTAssertEqual(requests.filter { $0.port == server.ports.site }.map(\.path), ["/feed.js"])
        let images = requests.filter { $0.port == server.ports.images }
        XCTAssertEqual(images.count, 20)
        XCTAssertEqual(Set(images.map(\.status)), [200])
        let connections = Set(images.map(\.connection))
        XCTAssertLessThanOrEqual(connections.count, 2, "20 requests, 8 at a time, as streams of one connection: \(images)")
    }

    /// The control: another certificate named as the CA fails the sync at the TLS handshake,
    /// saying which URL and why; the same sync trusting the server's own certificate through
    /// OpenSSL's variable succeeds.
    func testAnUntrustedCertificateFailsNamingTheURL() throws {
        let certificate = try SelfSignedCertificate()
        let stranger = try SelfSignedCertificate()
        let server = try site(certificate: certificate)
        defer { server.stop() }
        let feedURL = server.url("feed.js", port: server.ports.site)

        let refused = try trusting("CURL_CA_BUNDLE", stranger).run(
            ["sync", "--quiet", "--cache", try Paths.temporaryFolder().appendingPathComponent("refused").path, feedURL])
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains(feedURL), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("SSL certificate problem"), refused.stderr)
        XCTAssertEqual(server.requests, [], "no request is sent over a connection that failed verification")

        let trusted = try trusting("SSL_CERT_FILE", certificate).run(
            ["sync", "--quiet", "--cache", try Paths.temporaryFolder().appendingPathComponent("trusted").path, feedURL])
        XCTAssertEqual(trusted.status, 0, trusted.stderr)
    }
}
