import Foundation
import Testing
@testable import PMFeeds

/// HTML5 named references resolve in documents whose DTD does not declare them.
@Suite struct XMLEntityTests {
    private static let url = URL(string: "https://example.org/feed.xml")!

    private static func root(_ text: String) throws(FeedError) -> XMLTreeElement {
        try XMLTree.parse(Array(text.utf8), baseURL: url)
    }

    @Test func namesResolveInText() throws {
        let feed = try FeedParser.parse(Array(("<rss version=\"2.0\"><channel><title>caf&eacute;&nbsp;&hellip; it&rsquo;s "
                                               + "&amp; &lt;&#65;&gt;</title></channel></rss>").utf8), url: Self.url)
        #expect(feed.title == "café\u{A0}… it’s & <A>")
        #expect(feed.warnings.isEmpty)
    }

    @Test func namesResolveInAttributes() throws {
        let root = try Self.root("<a t=\"&eacute;&mdash;&Afr;&amp;\"><b u='x&nbsp;y'/></a>")
        #expect(root.attributes["t"] == "é—𝔄&")
        #expect(root.children.first?.attributes["u"] == "x\u{A0}y")
    }

    @Test func multiCodepointNamesResolveToAllTheirScalars() throws {
        let root = try Self.root("<a t=\"&acE;\">&nvlt;&bne;</a>")
        #expect(root.text.unicodeScalars.map(\.value) == [0x3C, 0x20D2, 0x3D, 0x20E5])
        #expect(root.attributes["t"]?.unicodeScalars.map(\.value) == [0x223E, 0x333])
    }

    @Test func declaredEntitiesWinOverHTMLNames() throws {
        let root = try Self.root("<!DOCTYPE a [<!ENTITY nbsp \"NB\"><!ENTITY eacute 'E'>]><a t=\"&nbsp;\">&nbsp;&eacute;&hellip;</a>")
        #expect(root.text == "NBE…")
        #expect(root.attributes["t"] == "NB")
    }

    @Test func unknownNamesInCommentsAndCDATAAreLeftAlone() throws {
        let root = try Self.root("<a><!-- &nbsp; --><![CDATA[&nbsp;&bogus;]]>&copy;</a>")
        #expect(root.text == "&nbsp;&bogus;©")
    }

    @Test func theTableIsWHATWGsList() {
        #expect(HTML5Entities.table.count == 2125)  // the 2231 names less the legacy ones without `;`
        #expect(HTML5Entities.table["nbsp"] == ["\u{A0}"])
        #expect(HTML5Entities.table["NotSquareSupersetEqual"] == ["\u{22E3}"])
    }

    @Test func errorColumnsStillMatchTheDocumentAfterANameResolves() throws {
        // `&eacute;` becomes `&#00233;`, as long: the bare `&` is still at column 34.
        let feed = try FeedParser.parse(Array("<rss><channel><title>&eacute; x & y</title></channel></rss>".utf8), url: Self.url)
        #expect(feed.title == "é x & y")
        #expect(feed.warnings.first?.hasPrefix("recovered from malformed XML: line 1, column 34, libxml2 error 68") == true,
                "\(feed.warnings)")
    }

    @Test func expansionBoundStillHolds() {
        let big = String(repeating: "A", count: 50_000)
        let document = "<!DOCTYPE rss [<!ENTITY x \"\(big)\">]><rss><channel><title>&nbsp;"
            + String(repeating: "&x;", count: 50) + "</title></channel></rss>"
        #expect(throws: FeedError("feed looks like XML but its entities expand to more than 1048576 bytes of text")) {
            try FeedParser.parse(Array(document.utf8), url: Self.url)
        }
    }
}
