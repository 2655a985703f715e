import Foundation
import PMFeeds

/// The real captures in `<package root>/../shared/fixtures/feeds`. Tests that need one are
/// disabled (with a printed reason) when it is absent, since the folder lives outside the repo and
/// its README allows dropping the unlicensed files.
enum Fixtures {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/fixtures/feeds").standardizedFileURL

    static func has(_ relativePath: String) -> Bool {
        let path = directory.appendingPathComponent(relativePath).path
        if FileManager.default.fileExists(atPath: path) { return true }
        print("PMFeedsTests: skipping tests that need \(path): not found (fixtures live outside the repo)")
        return false
    }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(relativePath)))
    }

    static func parse(_ relativePath: String, url: String) throws -> ParsedFeed {
        try FeedParser.parse(bytes(relativePath), url: URL(string: url)!)
    }
}

/// An exact instant from seconds since 1970 (values computed independently with Python's datetime).
func instant(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
