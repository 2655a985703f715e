import PMCache
import Testing
@testable import PhotoMirror

struct WatchScheduleTests {
    let feeds = ["a", "b", "c"]

    @Test func feedsNeverSyncedAreDueAtOnceAndRecentOnesAfterEvery() {
        let schedule = WatchSchedule(feeds: feeds, every: 60, lastPolls: ["b": 1000], polls: [:], now: 1030, jitter: { 0 })
        #expect(schedule.due(at: 1030) == ["a", "c"])
        #expect(schedule.due(at: 1059) == ["a", "c"])
        #expect(schedule.due(at: 1060) == ["a", "b", "c"])
    }

    @Test func whatAFeedAskedForWinsWhenLonger() {
        let polls = ["a": FeedPoll(url: "a", pollAfter: 5000), "b": FeedPoll(url: "b", pollAfter: 900)]
        let schedule = WatchSchedule(feeds: feeds, every: 60, lastPolls: ["a": 1000, "b": 1000], polls: polls, now: 1000,
                                     jitter: { 0 })
        #expect(schedule.due(at: 1060) == ["b", "c"])
        #expect(schedule.due(at: 5000) == feeds)
        var later = schedule
        later.polled("b", at: 1060, pollAfter: 1070, gone: false, jitter: 0)
        later.polled("c", at: 1060, pollAfter: 4000, gone: false, jitter: 0)
        #expect(later.due(at: 1120) == ["b"])
        #expect(later.nextDue == 1120)
    }

    @Test func goneFeedsAreNeverDue() {
        let polls = ["a": FeedPoll(url: "a", goneAt: 900)]
        var schedule = WatchSchedule(feeds: ["a", "b"], every: 60, lastPolls: [:], polls: polls, now: 1000, jitter: { 0 })
        #expect(schedule.due(at: 1000) == ["b"])
        #expect(schedule.gone == ["a"])
        schedule.polled("b", at: 1000, pollAfter: nil, gone: true, jitter: 0)
        #expect(schedule.due(at: 99_999) == [])
        #expect(schedule.nextDue == nil)
    }

    @Test func jitterIsAFewPercentOfEveryAndCapped() {
        var schedule = WatchSchedule(feeds: ["a"], every: 1000, lastPolls: [:], polls: [:], now: 0, jitter: { 0 })
        schedule.polled("a", at: 0, pollAfter: nil, gone: false, jitter: 0.999)
        let due = schedule.nextDue ?? 0
        #expect(due > 1000 && due < 1000 + 1000 * WatchSchedule.jitterFraction)
        var daily = WatchSchedule(feeds: ["a"], every: 86_400, lastPolls: [:], polls: [:], now: 0, jitter: { 0 })
        daily.polled("a", at: 0, pollAfter: nil, gone: false, jitter: 0.999)
        #expect((daily.nextDue ?? 0) < 86_400 + WatchSchedule.maxJitter)
    }
}
