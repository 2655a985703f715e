import Foundation
import Testing
@testable import PMFeeds

/// XMLTree reads through libxml2's xmlTextReader. FoundationXML's XMLParser, used before, killed the
/// process on a processing instruction without data (`<?x?>`): libxml2 passes NULL for its data and
/// XMLParser's callback called strlen on it. Each reproducer is also a file in Fuzz/regressions/feeds.
@Suite struct XMLReaderTests {
    private static let url = URL(string: "https://example.org/feeds/photos.xml")!

    private static func parse(_ text: String) throws(FeedError) -> ParsedFeed {
        try FeedParser.parse(Array(text.utf8), url: url)
    }

    /// Processing instructions are skipped wherever they are; the feed around them is read as usual.
    @Test(arguments: [
        "<rss version=\"2.0\"><channel><title>pho<?x?>tos</title></channel></rss>",
        "<?x?><rss version=\"2.0\"><?x?><channel><title>photos</title><?x?></channel></rss><?x?>",
        "<!DOCTYPE rss [<?x?>]><rss version=\"2.0\"><channel><title>photos</title></channel></rss>",
        "<!DOCTYPE rss [<!ENTITY e \"&#60;?x?>\">]><rss version=\"2.0\"><channel><title>photos&e;</title></channel></rss>",
        "<?xml version=\"1.0\" encoding=\"UTF-7\"?><rss version=\"2.0\"><channel><title>photos+ADw-?x?+AD4-</title></channel></rss>",
    ])
    func emptyProcessingInstructionIsIgnored(document: String) throws {
        let feed = try Self.parse(document)
        #expect(feed.kind == .rss)
        #expect(feed.title == "photos")
    }

    /// The declared-encoding reproducers as files: each parses with its PIs skipped. The EBCDIC ones
    /// declare their encoding in ASCII up to its closing quote (libxml2 switches right after the name),
    /// the form that reaches the parser: FeedDetector does not take all-EBCDIC bytes for XML.
    @Test(arguments: [
        ("xml-empty-pi-ibm037.xml", "photos"), ("xml-empty-pi-ibm500.xml", "photos"), ("xml-empty-pi-cp1026.xml", "photos"),
        ("xml-empty-pi-utf7.xml", "photos"), ("xml-empty-pi-iso-2022-jp.xml", "日本語"),
        ("xml-empty-pi-iso-2022-kr.xml", "한국"), ("xml-empty-pi-hz.xml", "中文"),
    ])
    func emptyProcessingInstructionInDeclaredEncoding(file: String, title: String) throws {
        let bytes = Array(try Data(contentsOf: RegressionsTests.directory.appendingPathComponent(file)))
        let feed = try FeedParser.parse(bytes, url: Self.url)
        #expect(feed.kind == .rss)
        #expect(feed.title == title)
    }

    @Test func xmlDeclarationWithoutDataIsAnError() {
        #expect(throws: FeedError("feed looks like XML but is not well-formed (line 1, column 6, libxml2 error 64: "
                                  + "XML declaration allowed only at the start of the document)")) {
            try Self.parse("<?xml?>")
        }
    }

    /// Bytes the declared encoding cannot convert: read as UTF-8 (they are) with a warning that
    /// names the charset and the byte, and nothing printed to stderr.
    @Test(arguments: [
        ("xml-empty-pi-iso-2022-jp-conversion-error.xml", "iso-2022-jp", "byte 0x78 at offset 19"),
        ("xml-empty-pi-utf7-conversion-error.xml", "utf-7", "byte 0x01 at offset 16"),
        ("xml-empty-pi-hz-conversion-error.xml", "hz", "byte 0x7E at offset 16"),
    ])
    func unconvertibleBytesFallBackToUTF8WithAWarning(file: String, charset: String, detail: String) throws {
        let bytes = Array(try Data(contentsOf: RegressionsTests.directory.appendingPathComponent(file)))
        let feed = try FeedParser.parse(bytes, url: Self.url)
        #expect(feed.kind == .rss)
        #expect(feed.warnings.first == "charset: the bytes are not valid \(charset) as the XML declaration says (\(detail)); read as UTF-8")
    }

    @Test func unsupportedEncodingIsIgnoredWithAWarning() throws {
        let feed = try Self.parse("<?xml version=\"1.0\" encoding=\"x-no-such-encoding\"?><rss/>")
        #expect(feed.kind == .rss)
        #expect(feed.warnings == ["charset: the XML declaration names unknown charset \"x-no-such-encoding\"; ignored"])
    }

    /// Markup after a complete root element is dropped, a broken root is recovered; both with warnings.
    @Test func contentAfterTheRootIsIgnoredAndABrokenRootRecovered() throws {
        let feed = try Self.parse("<rss version=\"2.0\"><channel><title>photos</title></channel></rss>\n"
                                  + "<b>Warning</b>: something<?x?> <")
        #expect(feed.title == "photos")
        #expect(feed.warnings.first == "recovered from malformed XML: line 2, column 1, libxml2 error 5: "
                                       + "Extra content at the end of the document")
        let broken = try Self.parse("<rss version=\"2.0\"><channel><title>photos</title></rss><b/>")
        #expect(broken.title == "photos")
        #expect(broken.warnings.first == "recovered from malformed XML: line 1, column 56, libxml2 error 76: "
                                         + "Opening and ending tag mismatch: channel line 1 and rss")
    }

    @Test func internalEntitiesAreExpandedAsText() throws {
        let feed = try Self.parse("<!DOCTYPE rss [<!ENTITY e \"caf&#233; <b>x</b>\">]>"
                                  + "<rss version=\"2.0\"><channel><title>&e; &amp;&e;</title></channel></rss>")
        #expect(feed.title == "café x &café x")
    }

    @Test func externalEntitiesAreNotRead() throws {
        let feed = try Self.parse("<!DOCTYPE rss [<!ENTITY e SYSTEM \"file:///etc/hostname\">]>"
                                  + "<rss version=\"2.0\"><channel><title>a&e;b</title></channel></rss>")
        #expect(feed.title == "ab")
    }

    @Test func entityExpansionIsBounded() {
        let big = String(repeating: "A", count: 50_000)
        let document = "<!DOCTYPE rss [<!ENTITY x \"\(big)\">]><rss><channel><title>"
            + String(repeating: "&x;", count: 50) + "</title></channel></rss>"
        #expect(throws: FeedError("feed looks like XML but its entities expand to more than 1048576 bytes of text")) {
            try Self.parse(document)
        }
    }

    @Test func billionLaughsIsRefused() {
        var dtd = "<!ENTITY l0 \"lol\">"
        for level in 1...9 { dtd += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
        let message = (try? Self.parse("<!DOCTYPE rss [\(dtd)]><rss><channel><title>&l9;</title></channel></rss>"))
            .map { _ in "parsed" } ?? "refused"
        #expect(message == "refused")
    }

    /// libxml2's error handlers are per thread: concurrent repairs each report their own error.
    @Test func concurrentErrorsStayWithTheirDocuments() async {
        let mismatched = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    do throws(FeedError) {
                        let feed = try Self.parse("<rss><channel><x\(index)></channel></rss>")
                        return !feed.warnings.contains { $0.contains("Opening and ending tag mismatch: x\(index) line 1 and channel") }
                    } catch {
                        return true
                    }
                }
            }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(mismatched == 0)
    }

    @Test func namespacesAttributesAndCDATA() throws {
        let root = try XMLTree.parse(Array(("<a xmlns=\"urn:x/\" xmlns:p=\"urn:p\" p:q=\"1\" xml:base=\"http://h/d/\" r=\"&lt;&#65;\">"
                                            + "<p:b/>t<![CDATA[<cd>]]>&amp;</a>").utf8), baseURL: Self.url)
        #expect(root.namespace == "urn:x" && root.name == "a")
        #expect(root.attributes == ["p:q": "1", "xml:base": "http://h/d/", "r": "<A"])
        #expect(root.text == "t<cd>&")
        #expect(root.child("urn:p", "b") != nil)
        #expect(root.child("urn:p", "b")?.resolve("x.jpg") == "http://h/d/x.jpg")
    }
}
