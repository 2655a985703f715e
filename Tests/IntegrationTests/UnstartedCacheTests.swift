import Foundation
import XCTest

/// A first sync killed after it took the cache's lock but before it created the index leaves a
/// folder with only `lock`: an empty cache, which verifies and which the next sync starts.
final class UnstartedCacheTests: XCTestCase {
    func testAFolderWithOnlyTheLockIsAnEmptyCacheThatVerifies() throws {
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: cache.appendingPathComponent("lock").path, contents: nil))
        let verify = try Photomirror().run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(try Photomirror().run(["verify", "--repair", "--cache", cache.path]).status, 0)
        // A folder without even the lock is not a cache at all.
        let empty = try Paths.temporaryFolder()
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", empty.path]).status, 4)
    }
}
