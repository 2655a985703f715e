import Foundation
import Testing
@testable import PMFeeds

@Suite struct FlickrPublicFixtureTests {
    static let json = "flickr-public/angulargrid-uploads-from-everyone-2017-01-21.json"
    static let jsonp = "flickr-public/angularjs-app-tagged-potato-2015-12-21.jsonp"
    static let feedURL = "https://www.flickr.com/services/feeds/photos_public.gne?format=json"

    @Test(.enabled(if: Fixtures.has(json))) func plainJSONFeed() throws {
        let feed = try Fixtures.parse(Self.json, url: Self.feedURL + "&nojsoncallback=1")
        #expect(feed.kind == .flickrPublic)
        #expect(feed.title == "Uploads from everyone")
        #expect(feed.link == "https://www.flickr.com/photos/")
        #expect(feed.items.count == 20)
        #expect(feed.invalid.isEmpty)
        #expect(feed.paging == nil)

        let first = try #require(feed.items.first)
        #expect(first.id == "32063200290")
        #expect(first.title == "X70F1550")
        #expect(first.link == "https://www.flickr.com/photos/132749751@N02/32063200290/")
        #expect(first.mediaURL == "https://farm1.staticflickr.com/651/32063200290_cb57e0755c_m.jpg")
        #expect(first.author == "SophistJC")
        #expect(first.published == instant(1_485_015_129))  // 2017-01-21T16:12:09Z
        #expect(first.dateTaken == instant(1_485_027_132))  // 2017-01-21T11:32:12-08:00
        #expect(first.tags == [])
        #expect(first.description?.hasPrefix(" <p><a href=\"https://www.flickr.com/people/132749751@N02/\">") == true)
        #expect(first.noImageReason == nil)

        #expect(feed.items.filter(\.tags.isEmpty).count == 14)
        #expect(feed.items[9].title == "Jérémy")
        #expect(feed.items[11].tags == ["cruise", "nhatrang", "vietnam"])
        #expect(feed.items[15].author == "GN-FOTOGRAFIAS (trabalhos finalizados)")
        #expect(feed.items[16].title == " ")
        #expect(feed.items.allSatisfy { $0.mediaURL?.hasPrefix("https://farm1.staticflickr.com/") == true && $0.mediaURL?.hasSuffix("_m.jpg") == true })
        #expect(Set(feed.items.map(\.id)).count == 20)
    }

    @Test(.enabled(if: Fixtures.has(jsonp))) func jsonpFeedWithInvalidApostropheEscape() throws {
        let feed = try Fixtures.parse(Self.jsonp, url: Self.feedURL + "&tags=potato")
        #expect(feed.kind == .flickrPublic)
        #expect(feed.title == "Recent Uploads tagged potato")
        #expect(feed.items.count == 20)
        #expect(feed.invalid.isEmpty)

        let first = feed.items[0]
        #expect(first.id == "23254876683")
        #expect(first.author == "sweetsoursavory")
        #expect(first.tags == ["potato", "radish"])
        #expect(first.published == instant(1_450_676_888))  // 2015-12-21T05:48:08Z
        #expect(first.dateTaken == instant(1_401_329_117))  // 2014-05-28T18:05:17-08:00

        // The 9th item carries Flickr's `I\'ll`; it must survive as a plain apostrophe.
        let quoted = feed.items[8]
        #expect(quoted.id == "23227571273")
        #expect(quoted.title == "On Edge")
        #expect(quoted.description?.contains("I'll have to try this again") == true)
        #expect(quoted.description?.contains("\\'") == false)
        #expect(quoted.description?.contains("</a>") == true)  // `<\/a>` unescaped

        #expect(feed.items[1].mediaURL == "https://farm6.staticflickr.com/5691/23790521771_8521e9211c_m.jpg")
        #expect(feed.items[10].title == "Pancakes pommes de terre saumon fumé")
        #expect(feed.items[12].title == "竹南垂坤食品 (15)")
        #expect(feed.items[12].tags.suffix(4) == ["苗栗", "竹南", "食品", "垂坤"])
    }
}
