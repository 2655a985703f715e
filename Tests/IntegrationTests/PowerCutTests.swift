import Foundation
import XCTest

/// A power cut, simulated: the cache lives on an ext4 file system in a loop-mounted image; right
/// after a sync (killed at a random instant, or finished) the image file is copied as it is,
/// which holds only what the file system had written to its "disk" — the dirty page cache is
/// lost, as in a power cut. The copy, mounted (its journal replayed), must hold a cache that
/// `verify` accepts, and the next sync completes it (issue 15).
final class PowerCutTests: XCTestCase {
    private var mounts: [URL] = []

    override func tearDown() {
        for mount in mounts.reversed() { _ = try? Command.run("/bin/umount", ["-l", mount.path]) }
    }

    private func mountImage(_ image: URL, at folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A long journal commit interval keeps written data dirty in memory, so that the copy
        // below really misses what was not flushed.
        let mounted = try Command.run("/bin/mount", ["-o", "loop,commit=120", image.path, folder.path])
        guard mounted.status == 0 else { throw XCTSkip("cannot loop-mount an ext4 image here: \(mounted.stderr)") }
        mounts.append(folder)
    }

    func testTheCacheOnDiskAfterAPowerCutVerifies() throws {
        guard getuid() == 0 else { throw XCTSkip("loop-mounting a file system needs root") }
        guard let mkfs = Command.find("mkfs.ext4") else { throw XCTSkip("mkfs.ext4 is not installed") }
        let site = try FeedSite(photos: try Paths.photos(count: 8))
        let server = try FixtureServer(root: site.root, arguments: ["--delay", "0.05"])
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let folder = try Paths.temporaryFolder()
        let image = folder.appendingPathComponent("disk.img")
        XCTAssertEqual(try Command.run("/usr/bin/truncate", ["-s", "96M", image.path]).status, 0)
        XCTAssertEqual(try Command.run(mkfs, ["-q", "-F", image.path]).status, 0)
        let disk = folder.appendingPathComponent("disk")
        try mountImage(image, at: disk)
        let cache = disk.appendingPathComponent("cache").path
        let photomirror = Photomirror()

        for round in 1...3 {
            // Round 1 finishes; later rounds add a thumbnail size (new files for every image) and are
            // killed mid-sync, over what the earlier ones left.
            if round == 1 {
                let first = try photomirror.run(["sync", "--cache", cache, server.url("feed.js")])
                XCTAssertEqual(first.status, 0, first.stderr)
            } else {
                try photomirror.kill(["sync", "--jobs", "2", "--size", "40x40", "--size", "\(60 + round)x\(60 + round)",
                                      "--cache", cache, server.url("feed.js")],
                                     after: Double.random(in: 0.1...0.6), output: folder.appendingPathComponent("kill-\(round).log"))
            }
            let snapshot = folder.appendingPathComponent("cut-\(round).img")
            XCTAssertEqual(try Command.run("/bin/cp", ["--sparse=always", image.path, snapshot.path]).status, 0)
            let after = folder.appendingPathComponent("after-\(round)")
            try mountImage(snapshot, at: after)
            let cut = after.appendingPathComponent("cache").path
            let verify = try photomirror.run(["verify", "--cache", cut])
            XCTAssertEqual(verify.status, 0, "round \(round), after the cut:\n\(verify.stderr)")
            let heal = try photomirror.run(["sync", "--json", "--cache", cut, server.url("feed.js")])
            XCTAssertEqual(heal.status, 0, heal.stderr)
            XCTAssertTrue(heal.stdout.contains("\"ok\" : 8"), heal.stdout)
            XCTAssertEqual(try photomirror.run(["verify", "--cache", cut]).status, 0)
        }
    }
}
