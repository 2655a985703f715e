import Foundation
import Testing
@testable import PMFeeds

/// Inputs the feed fuzzer (`Scripts/fuzz feeds`) found, kept in `Fuzz/regressions/feeds/` (outside
/// the test target, so SwiftPM does not ask for them to be declared as resources). Each must parse
/// or fail with a `FeedError`, promptly; before its fix each one killed the process.
@Suite struct RegressionsTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/regressions/feeds")

    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()

    private static let url = URL(string: "https://example.org/feeds/photos?format=json&page=1")!

    @Test func folderHoldsTheFoundInputs() {
        #expect(Self.files.contains("xml-invalid-utf8-element-name.xml"))
        #expect(Self.files.contains("atom-invalid-utf8-text-then-element.xml"))
        #expect(Self.files.contains("xml-malformed-encoding-declaration.xml"))
        // FoundationXML's XMLParser crashed on a processing instruction without data (XMLReaderTests).
        for file in ["xml-empty-pi-in-element.xml", "xml-empty-pi-xml.xml", "xml-empty-pi-in-dtd.xml",
                     "xml-empty-pi-in-entity.xml", "xml-empty-pi-utf7.xml", "xml-empty-pi-utf7-conversion-error.xml",
                     "xml-empty-pi-ibm037.xml", "xml-empty-pi-ibm500.xml", "xml-empty-pi-cp1026.xml",
                     "xml-empty-pi-iso-2022-jp.xml", "xml-empty-pi-iso-2022-jp-conversion-error.xml",
                     "xml-empty-pi-iso-2022-kr.xml", "xml-empty-pi-hz.xml", "xml-empty-pi-hz-conversion-error.xml"] {
            #expect(Self.files.contains(file), "\(file)")
        }
    }

    @Test(arguments: files)
    func parsesOrFailsCleanly(file: String) throws {
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent(file)))
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let feed = try FeedParser.parse(bytes, url: Self.url)
            #expect(Set(feed.items.map(\.id)).count == feed.items.count)
        } catch {
            #expect(!error.message.isEmpty)
        }
        // A hang guard (a decoder loop, a runaway parse), not a speed test: far above any real run.
        #expect(clock.now - started < .seconds(30), "\(file) took too long")
    }

    /// Every kind of XML name FoundationXML force-unwrapped as UTF-8: each of these crashed it. Such
    /// bytes are now read as windows-1252, so libxml2 only ever sees valid UTF-8.
    @Test(arguments: [
        "<\u{FF}\n\n\n",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss><\u{FF}/></rss>",
        "<?xml version='1.0' encoding='utf8'?><rss><channel><\u{FF}/></channel></rss>",
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss><channel><\u{FF}/></channel></rss>",
        "<a \u{FF}=\"1\"/>",
        "<x:\u{FF} xmlns:x=\"u\"/>",
        "<a xmlns:\u{FF}=\"u\"/>",
        "<a><!--\u{FF}--></a>",
        "<a><?\u{FF} x?></a>",
        "<a>&\u{FF};</a>",
        // A declaration libxml2 cannot read leaves the document UTF-8, whatever it names.
        "<?xml encoding=\"u><\u{E1}t>\n",
        "<?xml version=\"1.0\" encoding=\"ut\u{9D}\u{D2}8\"?><feed><\u{FF}/></feed>",
        "<?xml version=\"1.0\" standalone=\"yes\" encoding=\"latin1\"?><rss><\u{FF}/></rss>",
    ])
    func invalidUTF8InXMLIsReadAsWindows1252NotACrash(latin1Document: String) {
        let bytes = latin1Document.unicodeScalars.map { UInt8($0.value) }  // U+00FF → the lone byte 0xFF
        let decoded = XMLCharset.decode(bytes, contentType: nil)
        #expect(XMLCharset.firstInvalidUTF8(decoded.utf8) == nil)
        #expect(decoded.warnings.contains { $0.contains("windows-1252") }, "\(decoded.warnings)")
        do {
            _ = try FeedParser.parse(bytes, url: Self.url)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }

    @Test func invalidUTF8InTextIsReadAsWindows1252WithAWarning() throws {
        let bytes = Array("<rss><channel><title>caf".utf8) + [0xE9] + Array("</title></channel></rss>".utf8)
        let feed = try FeedParser.parse(bytes, url: Self.url)
        #expect(feed.title == "café")
        #expect(feed.warnings == ["charset: no charset declared and the bytes are not UTF-8 (byte 0xE9 at offset 24); "
                                  + "read as windows-1252"])
    }

    /// A declared 8-bit encoding is converted before libxml2 reads the document.
    @Test(arguments: ["ISO-8859-1", "iso-8859-1", "windows-1252", "latin1"])
    func declaredSingleByteEncodingsStillParse(encoding: String) throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n<rss version=\"2.0\"><channel><title>caf".utf8)
            + [0xE9] + Array("</title></channel></rss>".utf8)
        let feed = try FeedParser.parse(bytes, url: Self.url)
        #expect(feed.kind == .rss)
        #expect(feed.title == "café")
    }

    @Test func validUTF8IsUntouched() throws {
        let feed = try FeedParser.parse(Array("<rss><channel><title>café 📷 ☃</title></channel></rss>".utf8), url: Self.url)
        #expect(feed.title == "café 📷 ☃")
    }

    @Test func declaredEncodingNeedsTheStrictForm() {
        func name(_ text: String) -> String? { XMLCharset.declaration(Array(text.utf8))?.name }
        #expect(name("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>") == "ISO-8859-1")
        #expect(name("<?xml version='1.1'\n  encoding = 'windows-1252' standalone='no'?>") == "windows-1252")
        #expect(name("<?xml version=\"1.0\"?><a encoding=\"latin1\"/>") == nil)
        #expect(name("<?xml encoding=\"latin1\"?>") == nil)  // no version
        #expect(name("<?xml version=\"1.0\" standalone=\"yes\" encoding=\"latin1\"?>") == nil)  // wrong order
        #expect(name("<?xml version=\"1.0\" encoding=\"latin1'?>") == nil)  // mismatched quotes
        #expect(name("<?xml version=\"1.0\" encoding=\"8bit\"?>") == nil)  // EncName starts with a letter
        #expect(name("<?xml version=\"1.0\" encoding=\"\"?>") == nil)
        #expect(name("<?xml version=\"2\" encoding=\"latin1\"?>") == nil)
    }

    @Test func firstInvalidUTF8FindsStrictErrors() {
        #expect(XMLCharset.firstInvalidUTF8(Array("aé📷".utf8)) == nil)
        #expect(XMLCharset.firstInvalidUTF8([]) == nil)
        #expect(XMLCharset.firstInvalidUTF8([0x61, 0xC0, 0x80]) == 1)  // overlong NUL
        #expect(XMLCharset.firstInvalidUTF8([0x61, 0x62, 0xED, 0xA0, 0x80]) == 2)  // UTF-16 surrogate
        #expect(XMLCharset.firstInvalidUTF8([0xF4, 0x90, 0x80, 0x80]) == 0)  // past U+10FFFF
        #expect(XMLCharset.firstInvalidUTF8([0x61, 0xE2, 0x82]) == 1)  // truncated sequence
    }
}
