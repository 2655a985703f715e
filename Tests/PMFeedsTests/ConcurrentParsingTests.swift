import Foundation
import Testing
@testable import PMFeeds

@Suite struct ConcurrentParsingTests {
    /// The syncer parses several feeds at once; libxml2 (per-thread error handlers) and the JSON path must not share state.
    @Test func parsesXMLAndJSONFromManyTasksAtOnce() async throws {
        let rss = Array(RSSFeedTests.flickrRSS2.utf8), json = Array(JSONFeedTests.feed.utf8)
        let url = URL(string: "https://example.org/feed")!
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try FeedParser.parse(index.isMultiple(of: 2) ? rss : json, url: url).items.count
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts.filter { $0 == 2 }.count == 32)
        #expect(counts.filter { $0 == 4 }.count == 32)
    }
}
