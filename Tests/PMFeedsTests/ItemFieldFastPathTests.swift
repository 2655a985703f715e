import Foundation
import Testing
@testable import PMFeeds

/// The per-item helpers got byte-level fast paths; each must answer exactly as the general code
/// it short-cuts (kept as the fallback, or copied here as it was).
@Suite struct ItemFieldFastPathTests {
    @Test func whitespaceSetIsFoundationsOnLinux() {
        var mismatches: [UInt32] = []
        for value in Array(UInt32(0)...0xFFFF) + Array(stride(from: UInt32(0x10000), through: 0x10FFFF, by: 97)) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if FeedText.isWhitespace(scalar) != CharacterSet.whitespaces.contains(scalar) { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty)
    }

    @Test func trimmingMatchesFoundation() {
        let samples = ["", " ", " \t ", "a", " a ", "\u{3000}x\u{A0}", " \u{301}a b\t\u{200B}", "\n a \n", "\u{2009}\u{2009}",
                       " \"Chris Bloom\" ", "e\u{301} ", "\t(x)\t"]
        for sample in samples {
            #expect(FeedText.trimmingWhitespaces(Substring(sample)) == sample.trimmingCharacters(in: .whitespaces), "\(sample.debugDescription)")
        }
    }

    @Test func whitespaceAndNewlineSetIsFoundationsOnLinux() {
        var mismatches: [UInt32] = []
        for value in Array(UInt32(0)...0xFFFF) + Array(stride(from: UInt32(0x10000), through: 0x10FFFF, by: 97)) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if FeedText.isWhitespaceOrNewline(scalar) != CharacterSet.whitespacesAndNewlines.contains(scalar) {
                mismatches.append(value)
            }
        }
        #expect(mismatches.isEmpty)
    }

    @Test func trimmingNewlinesMatchesFoundation() {
        let pieces = ["", " ", "\t", "\n", "\r\n", "\u{85}", "\u{2028}", "\u{3000}", "\u{A0}", "\u{200B}", "\u{301}", "a",
                      "é", "📷", "<p>", "x y"]
        var random = SplitMix64(state: 7)
        var samples = ["", "\n\n", " a ", "\r\n<p>x</p>\r\n", "\u{2029}z\u{85}"]
        for _ in 0..<2000 {
            samples.append((0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        for sample in samples {
            #expect(FeedText.trimmingWhitespacesAndNewlines(sample) == sample.trimmingCharacters(in: .whitespacesAndNewlines),
                    "\(sample.debugDescription)")
        }
    }

    /// `authorName` as it was before the fast paths, with Foundation's trimming.
    private func authorNameAsItWas(_ author: String) -> String? {
        let trimmed = author.trimmingCharacters(in: .whitespaces)
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
            return trimmed.isEmpty || trimmed.contains("@") ? nil : trimmed
        }
        var name = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            .trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        return name.isEmpty ? nil : name
    }

    @Test func authorNameAnswersAsItDid() {
        let asciiPieces = [" ", "\t", "(", ")", "\"", "@", "a", "Bo", "\r", "\n", "\r\n", "x@y.z", "nobody@flickr.com", "\u{0B}"]
        let otherPieces = asciiPieces + ["\u{A0}", "\u{3000}", "\u{301}", "é", "📷", "\u{200B}", "（", "＂"]
        var random = SplitMix64(state: 42)
        for pieces in [asciiPieces, otherPieces] {
            for _ in 0..<3_000 {
                let author = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
                #expect(FeedText.authorName(from: author) == authorNameAsItWas(author), "\(author.debugDescription)")
            }
        }
        #expect(FeedText.authorName(from: #"nobody@flickr.com ("Chris Bloom")"#) == "Chris Bloom")
        #expect(FeedText.authorName(from: " nobody@flickr.com (sweetsoursavory) ") == "sweetsoursavory")
        #expect(FeedText.authorName(from: #"nobody@flickr.com ("Jérémy")"#) == "Jérémy")
    }

    @Test func splitTagsAnswersAsItDid() {
        let pieces = ["a", "bc", " ", "  ", "\t", "\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "é", "\u{85}", "\u{A0}", "\u{3000}", " \u{301}", "苗栗"]
        var random = SplitMix64(state: 7)
        for _ in 0..<3_000 {
            let tags = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(FeedText.splitTags(tags) == tags.split(whereSeparator: \.isWhitespace).map(String.init), "\(tags.debugDescription)")
        }
        #expect(FeedText.splitTags(nil) == [])
        #expect(FeedText.splitTags("bench photo set0") == ["bench", "photo", "set0"])
    }

    @Test func photoIDFromPlainLinksMatchesURLParsing() {
        let explicit = ["https://www.flickr.com/photos/o/1/", "https://www.flickr.com/photos//o/1/", "https://h/photos/./1/",
                        "https://h/photos/o/./1/", "https://h/a/photos/o/1/x", "https://h/photos/o/%31/", "https://h/photos/o/1?x=1",
                        "https://h/photos/o/1#f", "https://h//photos/o/1", "https:/photos/o/1", "photos/o/1", "/photos/o/1",
                        "https://h:80/photos/o/1", "https://u@h/photos/o/1", "https://h/photos/o/1 2/", "https://h/photos/o/１/",
                        "https://h/photos/o/1/../2", "https://h/photos/photos/1", "https://h/photos/o/", "HTTPS://h/photos/o/1",
                        "https://www.flickr.com/photos/132749751@N02/32063200290/", "https:///photos/o/1", "https://-/photos/o/1",
                        "http://h/photos/o/123", "https://h/photos/o/12a/", "https://h/photos/o/00/", ""]
        for link in explicit {
            #expect(FlickrPublicFeed.photoID(fromLink: link) == FlickrPublicFeed.photoIDParsingURL(link), "\(link)")
        }
        let pieces = ["https://", "http://", "h", "www.flickr.com", "-", ".", "..", "/", "//", "photos", "o", "1", "123", "0", "x1",
                      "_", "~", "@", ":", "80", "%31", "?", "#", " ", "１", "a", "photos/", "/photos/", "1/", "HTTP://", "é"]
        var random = SplitMix64(state: 2017)
        var plain = 0
        for round in 0..<10_000 {
            var link = round.isMultiple(of: 2) ? ["https://", "http://"].randomElement(using: &random)! + ["h", "www.flickr.com", "a.b", "x-y"].randomElement(using: &random)! : ""
            for _ in 0..<Int.random(in: 1...9, using: &random) { link += pieces.randomElement(using: &random)! }
            if case .plain = PlainHTTPLink(link) { plain += 1 }
            #expect(FlickrPublicFeed.photoID(fromLink: link) == FlickrPublicFeed.photoIDParsingURL(link), "\(link)")
        }
        #expect(plain > 300)  // the generator does reach the fast path
        #expect(PlainHTTPLink("https://www.flickr.com/photos/bench/52000000000/") == .plain(photoID: "52000000000"))
    }

    @Test func itemPathsWalkObjectsAndTreatNullAsMissing() throws {
        let item = try JSONValue.decode(Array(#"{"a":{"b":"x","n":null},"s":"y","n":null,"arr":[1]}"#.utf8), as: "item")
        let reader = JSONItemReader(item: item)
        #expect(reader.value("a.b")?.string == "x")
        #expect(reader.value("s")?.string == "y")
        #expect(reader.value("n") == nil)
        #expect(reader.value("a.n") == nil)
        #expect(reader.value("a.missing") == nil)
        #expect(reader.value("missing.b") == nil)
        #expect(reader.value("s.b") == nil)
        #expect(reader.value("arr.0") == nil)
    }
}
