import Foundation
import PMFeeds
import Testing
@testable import PhotoMirror

@Suite struct ItemSelectionTests {
    func item(_ id: String, _ day: Double?) -> FeedItem {
        FeedItem(id: id, title: id, link: nil, published: day.map { Date(timeIntervalSince1970: $0 * 86_400) }, dateTaken: nil,
                 author: nil, tags: [], description: nil, media: [])
    }

    @Test func theNewestNComeBackInTheFeedsOrder() {
        let items = [item("a", 1), item("b", 5), item("c", 3), item("d", 4), item("e", 2)]
        #expect(ItemSelection(newest: 2).choose(items).map(\.id) == ["b", "d"])
        #expect(ItemSelection(newest: 10).choose(items).map(\.id) == ["a", "b", "c", "d", "e"])
        #expect(ItemSelection().choose(items).map(\.id) == ["a", "b", "c", "d", "e"])
    }

    @Test func undatedItemsComeAfterDatedOnesInTheFeedsOrder() {
        let items = [item("u1", nil), item("d1", 1), item("u2", nil), item("d2", 2)]
        #expect(ItemSelection(newest: 3).choose(items).map(\.id) == ["u1", "d1", "d2"])
        #expect(ItemSelection(newest: 1).choose([item("x", nil), item("y", nil)]).map(\.id) == ["x"])
    }

    @Test func sinceKeepsTheRecentAndTheUndated() {
        let items = [item("old", 1), item("new", 10), item("undated", nil)]
        #expect(ItemSelection(since: 5 * 86_400).choose(items).map(\.id) == ["new", "undated"])
        #expect(ItemSelection(newest: 1, since: 5 * 86_400).choose(items).map(\.id) == ["new"])
    }

    @Test func sinceReadsDurationsDatesAndTimes() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try ItemSelection.since("7d", now: now) == 1_800_000_000 - 7 * 86_400)
        #expect(try ItemSelection.since("2026-11-01", now: now) == 1_793_491_200)
        #expect(try ItemSelection.since("2026-11-01T12:00:00Z", now: now) == 1_793_491_200 + 43_200)
        #expect(try ItemSelection.since("2026-11-01T12:00:00+01:00", now: now) == 1_793_491_200 + 39_600)
        for bad in ["", "7", "yesterday", "2026-13-01", "-3d"] {
            #expect(throws: ItemSelection.SinceError.self) { try ItemSelection.since(bad, now: now) }
        }
    }
}
