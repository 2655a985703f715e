import Foundation
import Testing
@testable import PMFeeds

/// Issue 24, item 6: Atom `<content>` or `<summary>` without `type=` holding markup is read as
/// HTML for its images, as feedparser sniffs it, with one warning; plain text stays text.
@Suite struct UntypedAtomContentTests {
    static func read(_ entries: String) throws -> ParsedFeed {
        let document = #"<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><link href="https://blog.example.org/"/>"#
            + entries + "</feed>"
        let bytes = Array(document.utf8)
        let (whole, streamed, _) = FeedStreamTests.both(bytes)
        #expect(whole == streamed)
        return try FeedParser.parse(bytes, url: URL(string: "https://blog.example.org/atom.xml")!)
    }

    @Test func escapedHTMLWithoutATypeGivesItsImages() throws {
        let feed = try Self.read("""
            <entry><id>1</id><link href="https://blog.example.org/1/"/>
              <content>&lt;p&gt;Two &lt;img src="a.jpg"&gt; and &lt;img src="https://cdn.example.org/b.jpg"&gt;&lt;/p&gt;</content></entry>
            <entry><id>2</id><summary><![CDATA[<div><img src="/c.png" alt="c"> caf&eacute;</div>]]></summary></entry>
            <entry><id>3</id><content>Words only, &lt;b&gt;bold&lt;/b&gt;.</content></entry>
            """)
        #expect(feed.items.map { $0.media.map(\.url) } == [
            ["https://blog.example.org/1/a.jpg", "https://cdn.example.org/b.jpg"], ["https://blog.example.org/c.png"], [],
        ])
        #expect(feed.items[0].media.allSatisfy { $0.source == .html })
        // Entry 3's is HTML too, but without images the guess changed nothing to tell.
        #expect(feed.warnings == [
            "Atom <content> without type= holds markup: read as HTML for its images (1 item)",
            "Atom <summary> without type= holds markup: read as HTML for its images (1 item)",
        ])
    }

    @Test func inlineMarkupWithoutATypeToo() throws {
        let feed = try Self.read(#"<entry><id>1</id><content><div><p>See</p><img src="https://cdn.example.org/i.jpg"/></div></content></entry>"#)
        #expect(feed.items[0].mediaURL == "https://cdn.example.org/i.jpg")
        #expect(feed.warnings.count == 1)
    }

    @Test func textStaysText() throws {
        let feed = try Self.read("""
            <entry><id>1</id><content>use &lt;img src="a.jpg"&gt; tags</content></entry>
            <entry><id>2</id><content>&lt;p&gt;&lt;img src="b.jpg"&gt;&lt;/p&gt; &lt;blink2&gt;</content></entry>
            <entry><id>3</id><content>&lt;img src="c.jpg"&gt; &amp;notanentity;</content></entry>
            <entry><id>4</id><content type="text">&lt;p&gt;&lt;img src="d.jpg"&gt;&lt;/p&gt;</content></entry>
            <entry><id>5</id><summary>a &lt; b and c &gt; d, AT&amp;T</summary></entry>
            """)
        #expect(feed.items.allSatisfy { $0.media.isEmpty })
        #expect(feed.warnings.isEmpty)
    }

    @Test(arguments: [
        ("<p>Hello</p>", true), ("Caf&eacute; <img src=x>", true), ("&#233;<br>", true), ("<IMG SRC=x></A>", true),
        ("<img src=x>", false), ("a <b> c", false), ("<p>x</p><foo>", false), ("&bogus; <p>", false),
        ("x < y", false), ("", false), ("<!-- c --> &amp", false),
    ])
    func feedparsersTest(_ text: String, _ isHTML: Bool) {
        #expect(HTMLSniffer.looksLikeHTML(text) == isHTML)
    }
}
