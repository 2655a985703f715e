import Foundation
import Testing
@testable import PMFeeds

@Suite struct FlickrSearchFixtureTests {
    static let twoPerPage = "flickr-search/flickrex-photos-2-per-page.json"
    static let failure = "flickr-search/flickrex-error-method-not-found.json"
    static let numericTotal = "flickr-search/github-search-test-task-search-2020.json"
    static let geo = "flickr-search/nosql-class-search-tatras-geo.json"
    static let apiURL = "https://api.flickr.com/services/rest/?method=flickr.photos.search&format=json&nojsoncallback=1"

    @Test(.enabled(if: Fixtures.has(twoPerPage))) func stringTotalAndBuiltURLs() throws {
        let feed = try Fixtures.parse(Self.twoPerPage, url: Self.apiURL)
        #expect(feed.kind == .flickrSearch)
        #expect(feed.title == "Flickr flickr.photos.search")
        #expect(feed.paging == .flickr(page: 1, pages: 635, perPage: 2, total: 1270))
        #expect(feed.items.map(\.id) == ["477842380", "477860905"])
        #expect(feed.items[0].mediaURL == "https://live.staticflickr.com/200/477842380_ee69046f6f.jpg")
        #expect(feed.items[0].link == "https://www.flickr.com/photos/35034362831@N01/477842380/")
        #expect(feed.items[1].title == "Joi with bamboo")
        #expect(feed.items[1].published == nil)
    }

    @Test(.enabled(if: Fixtures.has(failure))) func errorEnvelopeThrowsWithCodeAndMessage() throws {
        let error = #expect(throws: FeedError.self) { try Fixtures.parse(Self.failure, url: Self.apiURL) }
        #expect(error?.message == "Flickr API error 112: Method \"flickr.fakeMethod\" not found")
    }

    @Test(.enabled(if: Fixtures.has(numericTotal))) func numericTotalAndUnicodeTitles() throws {
        let feed = try Fixtures.parse(Self.numericTotal, url: Self.apiURL)
        #expect(feed.paging == .flickr(page: 1, pages: 100, perPage: 10, total: 1000))
        #expect(feed.items.count == 10)
        #expect(feed.items[0].mediaURL == "https://live.staticflickr.com/65535/49893635938_0aced90c10.jpg")
        #expect(feed.items[0].link == "https://www.flickr.com/photos/123597211@N03/49893635938/")
        #expect(feed.items[3].title == "")
        #expect(feed.items[6].title.hasSuffix("Movie😬🙆"))
        #expect(feed.items[7].title == "Chùa Khải Đoan | Photo by Vương Nguyễn Ngọc")
    }

    @Test(.enabled(if: Fixtures.has(geo))) func mixedTypesInGeoExtrasDoNotInvalidateItems() throws {
        let feed = try Fixtures.parse(Self.geo, url: Self.apiURL + "&has_geo=1&extras=geo")
        #expect(feed.paging == .flickr(page: 1, pages: 149, perPage: 100, total: 14807))
        #expect(feed.items.count == 100)
        #expect(feed.invalid.isEmpty)
        // Items 4, 94, 95 have `"latitude": "0.000000"` strings and no place_id/woeid.
        #expect(feed.items[4].id == "6896478375")
        #expect(feed.items[4].mediaURL == "https://live.staticflickr.com/7190/6896478375_1d91be2867.jpg")
        #expect(feed.items[95].link == "https://www.flickr.com/photos/68133328@N04/6896506179/")
        #expect(feed.items[1].title == "Zimą w Dolinie Kościeliskiej")
    }
}
