import Testing
@testable import PMFeeds

@Suite struct SrcSetTests {
    @Test func widthDescriptorsPickTheWidest() {
        let set = SrcSet("a-320.jpg 320w, a-1280.jpg 1280w, a-640.jpg 640w")
        #expect(set.candidates.map(\.width) == [320, 1280, 640])
        #expect(set.largest?.url == "a-1280.jpg")
    }

    @Test func densityDescriptorsAndNoDescriptorAsOneX() {
        #expect(SrcSet("a.jpg, a@3x.jpg 3x, a@2x.jpg 2x").largest?.url == "a@3x.jpg")
        #expect(SrcSet("a.jpg, b.jpg 0.5x").largest?.url == "a.jpg")
        #expect(SrcSet("only.jpg").candidates == [SrcSet.Candidate(url: "only.jpg", width: nil, density: nil)])
    }

    @Test func widthsWinOverDensities() {
        #expect(SrcSet("a.jpg 4x, b.jpg 800w").largest?.url == "b.jpg")
    }

    @Test func commasInsideURLsAndTrailingCommas() {
        let set = SrcSet("https://cdn.example.org/f_auto,w_400/a.jpg 400w, https://cdn.example.org/f_auto,w_800/a.jpg 800w")
        #expect(set.candidates.map(\.url) == ["https://cdn.example.org/f_auto,w_400/a.jpg", "https://cdn.example.org/f_auto,w_800/a.jpg"])
        #expect(set.largest?.url == "https://cdn.example.org/f_auto,w_800/a.jpg")
        // A URL ending in a comma ends its candidate.
        #expect(SrcSet("a.jpg,b.jpg 2x").candidates.map(\.url) == ["a.jpg,b.jpg"])
        #expect(SrcSet("a.jpg, b.jpg 2x").candidates.map(\.url) == ["a.jpg", "b.jpg"])
        #expect(SrcSet(",,a.jpg,, b.jpg 2x,,").candidates.map(\.url) == ["a.jpg", "b.jpg"])
    }

    @Test func malformedCandidatesAreDropped() {
        #expect(SrcSet("a.jpg 100q, b.jpg 2x").candidates.map(\.url) == ["b.jpg"])
        #expect(SrcSet("a.jpg 100w 2x, b.jpg -5w, c.jpg 1.5w, d.jpg 10h, e.jpg 1x 2x").candidates.isEmpty)
        #expect(SrcSet("a.jpg 300w 200h").candidates == [SrcSet.Candidate(url: "a.jpg", width: 300, density: nil)])
        #expect(SrcSet("a.jpg (x, y) 2x, b.jpg 3x").candidates.map(\.url) == ["b.jpg"])
        #expect(SrcSet("").candidates.isEmpty && SrcSet(" , ,").candidates.isEmpty)
        #expect(SrcSet("a.jpg 1e400x").candidates.isEmpty)
    }

    @Test func dataURIsAreNeverTheLargest() {
        #expect(SrcSet("data:image/gif;base64,R0lGOD 4000w, real.jpg 800w").largest?.url == "real.jpg")
    }

    @Test func hostileLengthIsBounded() {
        let huge = String(repeating: "a.jpg 1x, ", count: 50_000)
        #expect(SrcSet(huge).candidates.count <= SrcSet.lengthLimit)
    }
}
