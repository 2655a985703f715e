import Testing
@testable import PhotoMirror

/// The sync's per-host queues: feed order, each host's share of the window, and no host
/// holding up the URLs of the others.
@Suite struct HostQueuesTests {
    @Test func urlsComeInFeedOrderWhileNoHostIsFull() {
        let urls = ["http://a/1", "http://b/1", "http://a/2", "http://c/1"]
        var queues = HostQueues(urls, perHost: 10)
        var handed: [String] = []
        while let ticket = queues.next() { handed.append(ticket.url) }
        #expect(handed == urls)
        #expect(queues.isEmpty)
    }

    @Test func aFullHostIsPassedOverAndTheURLsAfterItStart() {
        let urls = ["http://a/1", "http://a/2", "http://a/3", "http://a/4", "http://b/1", "http://a/5", "http://c/1"]
        var queues = HostQueues(urls, perHost: 2)
        let first = queues.next(), second = queues.next()
        #expect([first?.url, second?.url] == ["http://a/1", "http://a/2"])
        #expect(queues.next()?.url == "http://b/1")
        #expect(queues.next()?.url == "http://c/1")
        #expect(queues.next() == nil)
        #expect(!queues.isEmpty)
        queues.finished(second!)
        #expect(queues.next()?.url == "http://a/3")
        #expect(queues.next() == nil)
    }

    @Test func itemsStartedBeforeTheQueueCountAgainstTheirHostsShare() {
        var queues = HostQueues(perHost: 2)
        let early = [queues.handOut("http://a/1"), queues.handOut("http://a/2"), queues.handOut("http://a/3")]
        for url in ["http://a/4", "http://b/1", "http://a/5"] { queues.append(url) }
        #expect(queues.next()?.url == "http://b/1", "a has three out, over its share of two")
        #expect(queues.next() == nil)
        queues.finished(early[0])
        #expect(queues.next() == nil, "still two out")
        queues.finished(early[1])
        #expect(queues.next()?.url == "http://a/4")
        #expect(queues.next() == nil)
        queues.finished(early[2])
        #expect(queues.next()?.url == "http://a/5")
    }

    @Test func aHostWithRoomAgainResumesItsOwnOrderAmongTheOthers() {
        let urls = ["http://a/1", "http://a/2", "http://b/1", "http://b/2", "http://b/3"]
        var queues = HostQueues(urls, perHost: 1)
        let a1 = queues.next()!
        let b1 = queues.next()!
        #expect([a1.url, b1.url] == ["http://a/1", "http://b/1"])
        queues.finished(b1)
        queues.finished(a1)
        // a/2 comes before b/2 in the feed.
        #expect(queues.next()?.url == "http://a/2")
        #expect(queues.next()?.url == "http://b/2")
    }

    @Test func theSameHostSpelledDifferentlyIsOneHost() {
        var queues = HostQueues(["http://A/1", "http://a:80/2", "https://a/3"], perHost: 1)
        #expect(queues.next()?.url == "http://A/1")
        #expect(queues.next()?.url == "https://a/3")
        #expect(queues.next() == nil)
    }

    @Test func everyURLIsHandedOutOnceAcrossManyHosts() {
        let urls = (0..<3000).map { "http://host\($0 % 37)/\($0)" }
        var queues = HostQueues(urls, perHost: 3)
        var out: [HostQueues.Ticket] = []
        var handed: [String] = []
        var round = 0
        while !queues.isEmpty || !out.isEmpty {
            while let ticket = queues.next() {
                out.append(ticket)
                handed.append(ticket.url)
            }
            // Give back every other ticket, oldest first, so hosts fill and drain unevenly.
            round += 1
            let back = out.count > 1 && round % 2 == 0 ? out.count / 2 : out.count
            for ticket in out.prefix(back) { queues.finished(ticket) }
            out.removeFirst(back)
        }
        #expect(handed.count == urls.count)
        #expect(Set(handed) == Set(urls))
    }

    @Test func noMoreThanTheShareOfAHostIsOutAtOnce() {
        let urls = (0..<50).map { "http://a/\($0)" } + ["http://b/1"]
        var queues = HostQueues(urls, perHost: 4)
        var handed: [String] = []
        while let ticket = queues.next() { handed.append(ticket.url) }
        #expect(handed == ["http://a/0", "http://a/1", "http://a/2", "http://a/3", "http://b/1"])
    }

    @Test func theWindowLeavesParkedItemsOutOfItsCountUpToACeiling() {
        let window = Window(jobs: 4)
        #expect(window.hasRoom(running: 7, parked: 0))
        #expect(!window.hasRoom(running: 8, parked: 0))
        #expect(window.hasRoom(running: 20, parked: 14))
        #expect(!window.hasRoom(running: 32, parked: 30))
        #expect(window.perHost(3) == 6)
    }
}
