import Foundation
import Testing
@testable import PMFeeds

/// Issue 24, item 3: a post's cover (its `media:thumbnail`) beside the images of its HTML is
/// kept, first, unless it is a smaller copy of one of them; and each picture is listed once.
@Suite struct CoverImageTests {
    static func media(_ item: String) throws -> [FeedMedia] {
        try MediaThumbnailPlacesTests.media(rss: "<item><guid>g</guid>\(item)</item>")[0]
    }

    @Test func aCoverThatIsNoImageOfTheHTMLIsKeptFirst() throws {
        let media = try Self.media("""
            <media:thumbnail url="https://blog.example.org/covers/harbour.jpg" width="1200" height="630"/>
            <description>&lt;p&gt;&lt;img src="https://blog.example.org/inline/boat.jpg"&gt;&lt;/p&gt;</description>
            """)
        #expect(media == [FeedMedia(url: "https://blog.example.org/covers/harbour.jpg", source: .mediaThumbnail),
                          FeedMedia(url: "https://blog.example.org/inline/boat.jpg", source: .html)])
    }

    @Test func aSmallerCopyOfAnHTMLImageGivesWayToTheLargerOneWhichLeads() throws {
        // Blogger: the thumbnail is the post's second picture at 72 px; the HTML has it at full size.
        let blogger = try Self.media("""
            <media:thumbnail url="https://1.bp.example.com/-Ab/Xy/AAAA/cD/s72-c/lake.jpg" height="72" width="72"/>
            <description>&lt;img src="https://1.bp.example.com/-Ab/Xy/AAAA/eF/s320/map.png"&gt;
              &lt;a href="https://1.bp.example.com/-Ab/Xy/AAAA/cD/s1600/lake.jpg"&gt;&lt;img src="https://1.bp.example.com/-Ab/Xy/AAAA/cD/s640/lake.jpg"&gt;&lt;/a&gt;</description>
            """)
        #expect(blogger == [FeedMedia(url: "https://1.bp.example.com/-Ab/Xy/AAAA/cD/s640/lake.jpg", source: .html),
                            FeedMedia(url: "https://1.bp.example.com/-Ab/Xy/AAAA/eF/s320/map.png", source: .html)])
        // Google's image servers put the size after `=`.
        let google = try Self.media("""
            <media:thumbnail url="https://images.example.com/img/b/R29vZ2xl/AVvXsEh1=s72-c"/>
            <description>&lt;img src="https://images.example.com/img/b/R29vZ2xl/AVvXsEh1=w640-h426"&gt;</description>
            """)
        #expect(google.map(\.url) == ["https://images.example.com/img/b/R29vZ2xl/AVvXsEh1=w640-h426"])
    }

    @Test func withFullSizeFilesTheThumbnailStaysOut() throws {
        let media = try Self.media("""
            <enclosure url="https://cdn.example.org/full.jpg" type="image/jpeg"/>
            <media:thumbnail url="https://cdn.example.org/other-thumb.jpg"/>
            <description>&lt;img src="https://cdn.example.org/inline.jpg"&gt;</description>
            """)
        #expect(media.map(\.source) == [.enclosure, .html])
    }

    @Test func anHTMLCopyOfAnEnclosureIsNotASecondPicture() throws {
        let media = try Self.media("""
            <enclosure url="https://wp.example.org/uploads/2024/05/harbour.jpg" type="image/jpeg"/>
            <description>&lt;img src="https://wp.example.org/uploads/2024/05/harbour-300x200.jpg"&gt;
              &lt;img src="http://WP.example.org/uploads/2024/05/harbour.jpg?w=640"&gt;
              &lt;img src="https://wp.example.org/uploads/2024/05/quay-300x200.jpg"&gt;</description>
            """)
        #expect(media == [FeedMedia(url: "https://wp.example.org/uploads/2024/05/harbour.jpg", source: .enclosure),
                          FeedMedia(url: "https://wp.example.org/uploads/2024/05/quay-300x200.jpg", source: .html)])
    }

    @Test(arguments: [
        ("https://1.bp.blogspot.com/-x/AAA/s72-c/a.jpg", "https://1.bp.blogspot.com/-x/AAA/s1600/a.jpg"),
        ("https://1.bp.blogspot.com/-x/AAA/s72-w640-c-h426/a.jpg", "https://1.bp.blogspot.com/-x/AAA/w640-h426-p-k-no-nu/a.jpg"),
        ("https://lh3.example.com/abc=s72-c", "https://lh3.example.com/abc=s1600-rw"),
        ("https://lh3.example.com/abc=s72-c", "https://lh3.example.com/abc"),
        ("http://wp.example.org/a-150x150.jpg", "https://wp.example.org/a.jpg"),
        ("https://x.files.example.com/a.jpeg?w=150", "https://x.files.example.com/a.jpeg?w=100&h=62&crop=1"),
        ("https://cdn.example.org/a.jpg?width=800#top", "https://CDN.example.org/a.jpg"),
    ])
    func sizesOfOnePicture(_ small: String, _ large: String) {
        #expect(PictureIdentity.key(small) == PictureIdentity.key(large))
    }

    @Test(arguments: [
        ("https://cdn.example.org/a.jpg", "https://cdn.example.org/b.jpg"),
        ("https://cdn.example.org/a.jpg", "https://other.example.org/a.jpg"),
        ("https://cdn.example.org/image.php?id=1&w=100", "https://cdn.example.org/image.php?id=2&w=100"),
        ("https://cdn.example.org/A.jpg", "https://cdn.example.org/a.jpg"),
        ("https://cdn.example.org/a-150x150-b.jpg", "https://cdn.example.org/a-b.jpg"),
        ("https://cdn.example.org/season-2x3.jpg", "https://cdn.example.org/season.jpg?2x3"),
        ("https://cdn.example.org/scenes/sky.jpg", "https://cdn.example.org/sky.jpg"),
        ("photo.jpg", "other.jpg"),
    ])
    func differentPictures(_ one: String, _ other: String) {
        #expect(PictureIdentity.key(one) != PictureIdentity.key(other))
    }
}
