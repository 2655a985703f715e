import Testing
@testable import PhotoMirror

/// Which store a command uses: the recorded one, a first one to record, a move, or a refusal.
@Suite struct StoreDecisionTests {
    let site = "s3://photos/site"

    func decide(_ recorded: StoreDecision.Recorded, _ given: String?, move: Bool = false, records: Bool = false)
        -> StoreDecision
    {
        StoreDecision.decide(recorded: recorded, given: given, move: move, records: records, cache: "/c", config: "/c/config.json")
    }

    func refusal(_ decision: StoreDecision) -> String? {
        if case .refuse(let message) = decision { return message }
        return nil
    }

    @Test func withoutStoreACommandUsesTheRecordedOne() {
        #expect(decide(.store(site), nil) == .use(site, record: false))
        #expect(decide(.store(site), nil, records: true) == .use(site, record: false))
        #expect(decide(.folder, nil) == .use(nil, record: false))
        #expect(decide(.nothing, nil, records: true) == .use(nil, record: false))
    }

    @Test func theFirstStoreIsRecordedBySyncOnly() {
        #expect(decide(.nothing, site, records: true) == .use(site, record: true))
        #expect(decide(.nothing, site) == .use(site, record: false))
        // A cache synced into a bucket before stores were recorded adopts the one given.
        #expect(decide(.elsewhere(indexed: 3), site, records: true) == .use(site, record: true))
        #expect(decide(.elsewhere(indexed: 3), site) == .use(site, record: false))
    }

    @Test func theSameStoreSpelledOtherwiseIsTheSame() {
        #expect(decide(.store("s3://photos/site/"), "s3://photos//site") == .use(site, record: false))
        #expect(decide(.store("s3://photos"), "s3://photos/") == .use("s3://photos", record: false))
    }

    @Test func aDifferentStoreIsRefusedNamingBoth() throws {
        for records in [false, true] {
            let message = try #require(refusal(decide(.store(site), "s3://photos/other", records: records)))
            #expect(message.contains(site) && message.contains("s3://photos/other") && message.contains("--move-store"))
        }
        #expect(refusal(decide(.store(site), "s3://other-bucket/site", records: true)) != nil)
        let fromFolder = try #require(refusal(decide(.folder, site, records: true)))
        #expect(fromFolder.contains("/c") && fromFolder.contains(site))
    }

    @Test func onlyMoveStoreOnASyncChangesIt() {
        #expect(decide(.store(site), "s3://photos/other", move: true, records: true)
            == .move(from: site, to: "s3://photos/other"))
        #expect(decide(.folder, site, move: true, records: true) == .move(from: nil, to: site))
        #expect(refusal(decide(.store(site), "s3://photos/other", move: true, records: false)) != nil)
        // Nothing to move: the store is already the cache's, or the cache has no files yet.
        #expect(decide(.store(site), site, move: true, records: true) == .use(site, record: false))
        #expect(decide(.nothing, site, move: true, records: true) == .use(site, record: true))
        #expect(refusal(decide(.store(site), nil, move: true, records: true)) != nil)
    }

    @Test func filesElsewhereAreNeverJudgedFromTheFolder() throws {
        for records in [false, true] {
            let message = try #require(refusal(decide(.elsewhere(indexed: 32), nil, records: records)))
            #expect(message.contains("32") && message.contains("--store") && message.contains("/c/config.json"))
        }
    }
}
