import Foundation
import Testing
@testable import PMFeeds

@Suite struct MarvelFixtureTests {
    static let page20 = "marvel/drogel-characters-offset0-limit20-2022.json"
    static let page50 = "marvel/marvel-pay-characters-offset0-limit50-2018.json"
    static let detail = "marvel/drogel-character-detail-2022.json"
    static let apiURL = "https://gateway.marvel.com/v1/public/characters?limit=20"
    static let placeholderReason = "Marvel has no image for this character (image_not_available placeholder)"

    @Test(.enabled(if: Fixtures.has(page20))) func twentyCharacters() throws {
        let feed = try Fixtures.parse(Self.page20, url: Self.apiURL)
        #expect(feed.kind == .marvel)
        #expect(feed.title == "Marvel characters")
        #expect(feed.attribution == "Data provided by Marvel. © 2022 MARVEL")
        #expect(feed.paging == .marvel(offset: 0, limit: 20, total: 1559, count: 20))
        #expect(feed.items.count == 20)
        #expect(feed.invalid.isEmpty)

        let placeholders = feed.items.filter { $0.mediaURL == nil }
        #expect(placeholders.count == 7)
        #expect(placeholders.allSatisfy { $0.noImageReason == Self.placeholderReason })
        #expect(feed.items.filter { $0.published == nil }.count == 8)  // 1969-12-31T19:00:00-0500 sentinels

        let first = feed.items[0]
        #expect(first.id == "1011334")
        #expect(first.title == "3-D Man")
        #expect(first.mediaURL == "http://i.annihil.us/u/prod/marvel/i/mg/c/e0/535fecbbb9784.jpg")
        #expect(first.published == instant(1_398_795_497))  // 2014-04-29T14:18:17-0400
        #expect(first.description == nil)
        #expect(first.link == "http://marvel.com/comics/characters/1011334/3-d_man?utm_campaign=apiRef&utm_source=a98aae54a49f076039d280c68db39ea3")

        let aegis = try #require(feed.items.first { $0.title == "Aegis (Trey Rollins)" })
        #expect(aegis.mediaURL == "http://i.annihil.us/u/prod/marvel/i/mg/5/e0/4c0035c9c425d.gif")
        #expect(aegis.published == nil)
        let aaron = try #require(feed.items.first { $0.id == "1010699" })
        #expect(aaron.mediaURL == nil && aaron.noImageReason == Self.placeholderReason)
        let aBomb = try #require(feed.items.first { $0.title == "A-Bomb (HAS)" })
        #expect(aBomb.description?.hasSuffix("all of destruction!") == true)  // trailing space trimmed
    }

    @Test(.enabled(if: Fixtures.has(page50))) func fiftyCharacters() throws {
        let feed = try Fixtures.parse(Self.page50, url: Self.apiURL)
        #expect(feed.paging == .marvel(offset: 0, limit: 50, total: 1491, count: 50))
        #expect(feed.items.count == 50)
        #expect(feed.items.filter { $0.noImageReason == Self.placeholderReason }.count == 23)
        #expect(feed.items.filter { $0.published == nil }.count == 29)
        #expect(feed.items.filter { $0.description == nil }.count == 43)
        #expect(feed.attribution == "Data provided by Marvel. © 2018 MARVEL")
    }

    @Test(.enabled(if: Fixtures.has(detail))) func singleCharacterDetail() throws {
        let feed = try Fixtures.parse(Self.detail, url: "https://gateway.marvel.com/v1/public/characters/1011334")
        #expect(feed.paging == .marvel(offset: 0, limit: 20, total: 1, count: 1))
        let item = try #require(feed.items.first)
        #expect(feed.items.count == 1)
        #expect(item.description?.hasPrefix("This is just a very long text, inserted here manually to describe this character, for testing") == true)
        #expect(item.description?.hasSuffix("created by Roy Thomas and John Craig.") == true)
        #expect(item.mediaURL == "http://i.annihil.us/u/prod/marvel/i/mg/c/e0/535fecbbb9784.jpg")
    }
}
