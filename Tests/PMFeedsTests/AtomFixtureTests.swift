import Foundation
import Testing
@testable import PMFeeds

@Suite struct AtomFixtureTests {
    static let flickr = "other/practicas-flickr-photos_public-atom-2011.xml"
    static let github = "other/rss-parser-github-releases-gulp.atom"

    @Test(.enabled(if: Fixtures.has(flickr))) func flickrAtomEnclosuresAndCategories() throws {
        let feed = try Fixtures.parse(Self.flickr, url: "https://api.flickr.com/services/feeds/photos_public.gne?tags=cosplay")
        #expect(feed.kind == .atom)
        #expect(feed.title == "Recent Uploads tagged schoolgirl, photo and cosplay")
        #expect(feed.link == "http://www.flickr.com/photos/")
        #expect(feed.items.count == 20)
        #expect(feed.invalid.isEmpty)
        #expect(feed.items.allSatisfy { $0.mediaURL?.hasSuffix("_b.jpg") == true })
        #expect(feed.items.map(\.tags.count).reduce(0, +) == 714)

        let first = feed.items[0]
        #expect(first.id == "tag:flickr.com,2005:/photo/5505589929")
        #expect(first.title == "Spiel 2009 - 132")
        #expect(first.link == "http://www.flickr.com/photos/mchenryarts/5505589929/")
        #expect(first.mediaURL == "http://farm6.staticflickr.com/5257/5505589929_0eaab3b6d0_b.jpg")
        #expect(first.author == "mchenryarts")
        #expect(first.published == instant(1_299_503_962))  // 2011-03-07T13:19:22Z
        #expect(first.dateTaken == instant(1_256_420_291))  // 2009-10-24T13:38:11-08:00
        #expect(first.tags.count == 53)
        #expect(first.tags.prefix(3) == ["costumes", "girls", "people"])
        #expect(first.tags.contains("kostüm") && first.tags.contains("kostüme"))
        #expect(feed.items[1].tags.contains("düsseldorf"))
        // Entity-escaped HTML content arrives decoded, still as text.
        #expect(first.description?.contains("<a href=\"http://www.flickr.com/people/mchenryarts/\">mchenryarts</a>") == true)
        #expect(feed.items[18].author == "kevin dooley")
    }

    @Test(.enabled(if: Fixtures.has(github))) func githubRelativeLinksAndThumbnails() throws {
        let feed = try Fixtures.parse(Self.github, url: "https://github.com/gulpjs/gulp/releases.atom")
        #expect(feed.kind == .atom)
        #expect(feed.title == "Release notes from gulp")
        #expect(feed.link == "https://github.com/gulpjs/gulp/releases")
        #expect(feed.items.count == 10)
        let first = feed.items[0]
        #expect(first.id == "tag:github.com,2008:Repository/11167738/v3.9.0")
        #expect(first.link == "https://github.com/gulpjs/gulp/releases/tag/v3.9.0")
        #expect(first.published == instant(1_433_195_381))  // <updated>2015-06-01T23:49:41+02:00
        #expect(first.author == "contra")
        #expect(first.media == [FeedMedia(url: "https://avatars3.githubusercontent.com/u/425716?v=3&s=60", source: .mediaThumbnail)])
        #expect(first.description == "<p>3.9.0</p>")
        #expect(feed.items[9].link == "https://github.com/gulpjs/gulp/releases/tag/v3.8.3")
        #expect(Set(feed.items.map(\.id)).count == 10)
    }
}
