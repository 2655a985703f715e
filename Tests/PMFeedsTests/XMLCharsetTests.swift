import Foundation
import Testing
@testable import PMFeeds

/// RFC 7303's order: byte-order mark, then the HTTP charset, then the XML declaration; UTF-16 and
/// UTF-32 without a mark by their zero bytes; undeclared non-UTF-8 as windows-1252.
@Suite struct XMLCharsetTests {
    private static let url = URL(string: "https://example.org/feed.xml")!

    private static func rss(_ title: String, declaration: String = "") -> String {
        declaration + "<rss version=\"2.0\"><channel><title>\(title)</title></channel></rss>"
    }

    private static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    private static func utf32(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar in
            let bytes = (0..<4).map { UInt8((scalar.value >> (8 * $0)) & 0xFF) }
            return bigEndian ? bytes.reversed() : bytes
        }
    }

    /// "Привет" in KOI8-R.
    private static let koi8Privet: [UInt8] = [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]

    private static func parse(_ bytes: [UInt8], contentType: String? = nil) throws(FeedError) -> ParsedFeed {
        try FeedParser.parse(bytes, url: url, contentType: contentType)
    }

    @Test func utf8ByteOrderMark() throws {
        let feed = try Self.parse([0xEF, 0xBB, 0xBF] + Array(Self.rss("café 📷").utf8))
        #expect(feed.kind == .rss && feed.title == "café 📷" && feed.warnings.isEmpty)
    }

    @Test(arguments: [false, true])
    func utf16ByteOrderMark(bigEndian: Bool) throws {
        let text = "\u{FEFF}" + Self.rss("café 📷", declaration: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n")
        let feed = try Self.parse(Self.utf16(text, bigEndian: bigEndian))
        #expect(feed.kind == .rss && feed.title == "café 📷" && feed.warnings.isEmpty)
    }

    @Test(arguments: [false, true])
    func utf32ByteOrderMark(bigEndian: Bool) throws {
        let feed = try Self.parse(Self.utf32("\u{FEFF}" + Self.rss("café 📷"), bigEndian: bigEndian))
        #expect(feed.kind == .rss && feed.title == "café 📷" && feed.warnings.isEmpty)
    }

    @Test(arguments: [false, true])
    func utf16WithoutAMarkByItsZeroBytes(bigEndian: Bool) throws {
        let text = Self.rss("Привет", declaration: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>")
        let feed = try Self.parse(Self.utf16(text, bigEndian: bigEndian))
        #expect(feed.kind == .rss && feed.title == "Привет" && feed.warnings.isEmpty)
        // Without a declaration too, and even with an HTTP charset that names an 8-bit one.
        let bare = try Self.parse(Self.utf16("  " + Self.rss("Привет"), bigEndian: bigEndian), contentType: "text/xml; charset=utf-16")
        #expect(bare.title == "Привет")
        let mislabelled = try Self.parse(Self.utf16(Self.rss("Привет"), bigEndian: bigEndian), contentType: "text/xml; charset=iso-8859-1")
        #expect(mislabelled.title == "Привет" && mislabelled.warnings.count == 1)
    }

    @Test func utf32WithoutAMark() throws {
        #expect(try Self.parse(Self.utf32(Self.rss("été"), bigEndian: false)).title == "été")
        #expect(try Self.parse(Self.utf32(Self.rss("été"), bigEndian: true)).title == "été")
    }

    @Test func httpCharsetBeatsTheDeclaration() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>".utf8)
            + Self.koi8Privet + Array("</title></channel></rss>".utf8)
        #expect(try Self.parse(bytes).title == "ðÒÉ×ÅÔ")
        let feed = try Self.parse(bytes, contentType: "application/rss+xml; charset=\"KOI8-R\"")
        #expect(feed.title == "Привет" && feed.warnings.isEmpty)
    }

    @Test func byteOrderMarkBeatsTheHTTPCharset() throws {
        let feed = try Self.parse([0xEF, 0xBB, 0xBF] + Array(Self.rss("café").utf8), contentType: "text/xml; charset=koi8-r")
        #expect(feed.title == "café")
    }

    @Test(arguments: ["koi8-r", "KOI8-R"])
    func koi8RByDeclaration(name: String) throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"\(name)\"?><rss version=\"2.0\"><channel><title>".utf8)
            + Self.koi8Privet + Array("</title></channel></rss>".utf8)
        let feed = try Self.parse(bytes)
        #expect(feed.title == "Привет" && feed.warnings.isEmpty)
    }

    @Test func koi8RByHTTPCharset() throws {
        let bytes = Array("<rss version=\"2.0\"><channel><title>".utf8) + Self.koi8Privet + Array("</title></channel></rss>".utf8)
        #expect(try Self.parse(bytes, contentType: "text/xml;charset=koi8-r").title == "Привет")
    }

    /// Latin-1 labels read as windows-1252, as browsers do: 0x92 is a curly apostrophe.
    @Test(arguments: ["ISO-8859-1", "latin1", "cp1252", "windows-1252", "us-ascii"])
    func latin1ByDeclarationAndByHTTPCharset(name: String) throws {
        let body = Array("<rss version=\"2.0\"><channel><title>caf".utf8) + [0xE9, 0x20, 0x92, 0x81] + Array("</title></channel></rss>".utf8)
        let declared = try Self.parse(Array("<?xml version=\"1.0\" encoding=\"\(name)\"?>".utf8) + body)
        #expect(declared.title == "café \u{2019}\u{81}" && declared.warnings.isEmpty)
        let http = try Self.parse(body, contentType: "text/xml; charset=\(name)")
        #expect(http.title == "café \u{2019}\u{81}" && http.warnings.isEmpty)
    }

    @Test func undeclaredInvalidUTF8IsWindows1252WithAWarning() throws {
        let bytes = Array("<rss version=\"2.0\"><channel><title>caf".utf8) + [0xE9, 0x20, 0x93, 0x94] + Array("</title></channel></rss>".utf8)
        let feed = try Self.parse(bytes)
        #expect(feed.title == "café “”")
        #expect(feed.warnings == ["charset: no charset declared and the bytes are not UTF-8 (byte 0xE9 at offset 38); "
                                  + "read as windows-1252"])
    }

    @Test func unknownCharsetNamesAreWarningsAndTheNextSourceIsUsed() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"koi8-r\"?><rss version=\"2.0\"><channel><title>".utf8)
            + Self.koi8Privet + Array("</title></channel></rss>".utf8)
        let feed = try Self.parse(bytes, contentType: "text/xml; charset=x-no-such")
        #expect(feed.title == "Привет")
        #expect(feed.warnings == ["charset: the HTTP Content-Type names unknown charset \"x-no-such\"; ignored"])
        let declared = try Self.parse(Array(Self.rss("café", declaration: "<?xml version=\"1.0\" encoding=\"x-no-such\"?>").utf8))
        #expect(declared.title == "café")
        #expect(declared.warnings == ["charset: the XML declaration names unknown charset \"x-no-such\"; ignored"])
    }

    @Test func bytesInvalidForTheDeclaredCharsetFallBack() throws {
        // 0xFF is no EUC-JP byte, and the bytes are not UTF-8 either.
        let feed = try Self.parse(Array(Self.rss("café", declaration: "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>").utf8)
                                  .map { $0 == 0xA9 ? 0xFF : $0 })
        #expect(feed.title == "caf\u{C3}\u{FF}")
        #expect(feed.warnings.count == 1 && feed.warnings[0].hasSuffix("read as windows-1252"), "\(feed.warnings)")
        let utf8 = try Self.parse(Array(Self.rss("caf\u{1}").utf8), contentType: "text/xml; charset=utf-7")
        #expect(utf8.warnings.first?.hasSuffix("read as UTF-8") == true, "\(utf8.warnings)")
    }

    @Test func jsonInUTF16IsStillJSON() throws {
        let json = Array(JSONFeedTests.feed.utf8)
        let feed = try FeedParser.parse(Self.utf16(JSONFeedTests.feed, bigEndian: false), url: Self.url)
        #expect(feed.kind == .jsonFeed)
        #expect(feed.items.count == (try FeedParser.parse(json, url: Self.url)).items.count)
    }

    @Test func markupIsRecognisedBehindMarksAndZeroBytes() {
        #expect(XMLCharset.startsWithMarkup(Array(" \n<rss>".utf8)))
        #expect(XMLCharset.startsWithMarkup([0xEF, 0xBB, 0xBF, 0x3C]))
        #expect(XMLCharset.startsWithMarkup([0xFE, 0xFF, 0x00, 0x3C]))
        #expect(XMLCharset.startsWithMarkup([0x3C, 0x00, 0x3F, 0x00]))
        #expect(XMLCharset.startsWithMarkup([0x00, 0x20, 0x00, 0x3C]))
        #expect(!XMLCharset.startsWithMarkup([0x7B, 0x00, 0x22, 0x00]))
        #expect(!XMLCharset.startsWithMarkup(Array("{\"a\": \"<\"}".utf8)))
    }

    @Test func httpCharsetParameter() {
        #expect(XMLCharset.httpCharset("text/xml; Charset=\"UTF-8\"") == "UTF-8")
        #expect(XMLCharset.httpCharset("application/xml;charset=koi8-r;q=1") == "koi8-r")
        #expect(XMLCharset.httpCharset("text/xml") == nil)
        #expect(XMLCharset.httpCharset(nil) == nil)
    }
}
