import Foundation
import XCTest

/// Exit codes and messages of the real binary, as `--help` documents them.
final class CommandLineTests: XCTestCase {
    func testUsageErrorsExitTwo() throws {
        let photomirror = Photomirror()
        XCTAssertEqual(try photomirror.run([]).status, 2)
        let unknown = try photomirror.run(["frobnicate"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("unknown command \"frobnicate\""), unknown.stderr)
        let badSize = try photomirror.run(["sync", "--size", "40by40", "file:///nonexistent"])
        XCTAssertEqual(badSize.status, 2)
        XCTAssertTrue(badSize.stderr.contains("--size"), badSize.stderr)
        XCTAssertEqual(try photomirror.run(["sync"]).status, 2)
    }

    func testHelpDocumentsExitCodes() throws {
        let help = try Photomirror().run(["--help"])
        XCTAssertEqual(help.status, 0)
        for line in ["0  everything succeeded", "2  usage error", "3  a feed could not be fetched or parsed"] {
            XCTAssertTrue(help.stdout.contains(line), "missing \(line)")
        }
        let syncHelp = try Photomirror().run(["sync", "--help"])
        XCTAssertTrue(syncHelp.stdout.contains("--jobs N"), syncHelp.stdout)
    }

    func testUnreadableFeedsExitThreeNamingTheCause() throws {
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache").path
        let missing = try Photomirror().run(["sync", "--cache", cache, "file://\(folder.path)/nope.json"])
        XCTAssertEqual(missing.status, 3, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("nope.json"), missing.stderr)

        let notAFeed = folder.appendingPathComponent("notes.txt")
        try Data("hello, this is not a feed".utf8).write(to: notAFeed)
        let unrecognized = try Photomirror().run(["sync", "--cache", cache, notAFeed.absoluteString])
        XCTAssertEqual(unrecognized.status, 3, unrecognized.stderr)
        // Named and measured, never quoted: a local file's bytes may be secrets.
        XCTAssertTrue(unrecognized.stderr.contains("unrecognized feed: received 25 bytes;"), unrecognized.stderr)
        XCTAssertFalse(unrecognized.stderr.contains("hello, this is"), unrecognized.stderr)

        let refused = try Photomirror().run(["sync", "--cache", cache, "--timeout", "5", "http://127.0.0.1:1/feed.js"])
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("127.0.0.1:1"), refused.stderr)
    }

    func testThumbMakesFortyByFortyPNGsAndReportsBadFiles() throws {
        let photos = try Paths.photos(count: 3)
        let folder = try Paths.temporaryFolder()
        let broken = folder.appendingPathComponent("broken.jpg")
        try Data([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10] + Array(repeating: 0x42, count: 100)).write(to: broken)
        let output = folder.appendingPathComponent("out")
        let result = try Photomirror().run(["thumb", "-o", output.path] + photos.map(\.path) + [broken.path])
        XCTAssertEqual(result.status, 1, "one input failed: exit 1")
        XCTAssertTrue(result.stderr.contains("broken.jpg"), result.stderr)
        for photo in photos {
            let name = photo.deletingPathExtension().lastPathComponent + ".png"
            let size = pngSize(try Data(contentsOf: output.appendingPathComponent(name)))
            XCTAssertEqual(size?.width, 40)
            XCTAssertEqual(size?.height, 40)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("broken.png").path))
    }
}
