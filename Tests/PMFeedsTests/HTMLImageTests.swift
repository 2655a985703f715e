import Foundation
import Testing
@testable import PMFeeds

@Suite struct HTMLImageTests {
    @Test func srcInDocumentOrder() {
        let html = #"<p>Hi <IMG SRC="/a.jpg" alt=x> and <a href=/x><img src='b.png'></a></p><img src=c.gif>"#
        #expect(HTMLImages.urls(in: html) == ["/a.jpg", "b.png", "c.gif"])
    }

    @Test func largestSrcsetBeatsSrc() {
        let html = #"<img src="small.jpg" srcset="small.jpg 320w, big.jpg 1600w, mid.jpg 800w">"#
        #expect(HTMLImages.urls(in: html) == ["big.jpg"])
    }

    @Test func lazyLoadingPlaceholders() {
        let html = """
        <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/real-1.jpg">
        <img src="/img/blank.gif" data-lazy-src="/real-2.jpg">
        <img data-src="/real-3.jpg">
        <img src="/kept.jpg" data-src="/other.jpg">
        <img src="x.jpg" data-srcset="lazy-400.jpg 400w, lazy-900.jpg 900w">
        """
        #expect(HTMLImages.urls(in: html) == ["/real-1.jpg", "/real-2.jpg", "/real-3.jpg", "/kept.jpg", "lazy-900.jpg"])
    }

    @Test func trackingPixelsHiddenImagesAndDataURIsAreSkipped() {
        let html = """
        <img src="https://t.example.com/p.gif" width="1" height="1">
        <img src="https://t.example.com/q.gif" width="0">
        <img src="https://t.example.com/r.gif" height="0px">
        <img src="https://t.example.com/s.gif" style="display: none">
        <img src="data:image/png;base64,iVBORw0KGgo=">
        <img src="https://example.com/photo.jpg" width="1" height="600">
        """
        #expect(HTMLImages.urls(in: html) == ["https://example.com/photo.jpg"])
    }

    /// Dimensions are read as browsers read them: leading blanks, then the leading digits; an
    /// attribute without digits, or with more than six, declares no size.
    @Test func dimensionsAndDataURIsAreReadLikeBrowsers() {
        let html = """
        <img src="https://t.example.com/a.gif" width=" 1px" height="\t1 ">
        <img src="https://t.example.com/b.gif" width="00" height="50">
        <img src="https://example.com/wide.jpg" width="1000000" height="1">
        <img src="https://example.com/auto.jpg" width="auto" height="">
        <img src=" DATA:image/gif;base64,R0lGOD=">
        <img src="https://example.com/data.jpg" srcset="Data:image/png;base64,AA== 2000w, https://example.com/data-900.jpg 900w">
        <img src="https://example.com/styled.jpg" style="border: 0">
        <img src="https://example.com/hidden.jpg" style="Visibility : Hidden">
        """
        #expect(HTMLImages.urls(in: html) == [
            "https://example.com/wide.jpg", "https://example.com/auto.jpg", "https://example.com/data-900.jpg",
            "https://example.com/styled.jpg",
        ])
    }

    @Test func textWithoutImageTagIsNotParsed() {
        #expect(HTMLImages.urls(in: "<p>no images here</p>").isEmpty)
        #expect(HTMLImages.urls(in: "").isEmpty)
        func hasTag(_ text: String) -> Bool { Array(text.utf8).withUnsafeBufferPointer(HTMLImages.containsImageTag) }
        #expect(hasTag("x <iMg src=a.jpg"))
        #expect(!hasTag("<im") && !hasTag("a < b, img") && !hasTag(""))
    }

    @Test func brokenAndHostileMarkupIsSafe() {
        _ = HTMLImages.urls(in: "<img src=\"a.jpg")
        #expect(HTMLImages.urls(in: "<<<img <img src=b.jpg>>>") == ["b.jpg"])
        let deep = String(repeating: "<div>", count: 20_000) + "<img src=deep.jpg>"
        _ = HTMLImages.urls(in: deep)
        let many = String(repeating: "<img src=x.jpg>", count: 1_000)
        #expect(HTMLImages.urls(in: many).count == HTMLImages.imageLimit)
        _ = HTMLImages.urls(in: "<img src=\"\u{0}\u{FFFF}\">\u{1}<img src=ok.jpg>")
    }

    @Test func concurrentCallsAgree() async {
        let html = String(repeating: #"<p><img src="a.jpg" srcset="b.jpg 2x"> text &amp; <img src=c.png></p>"#, count: 20)
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<32 { group.addTask { HTMLImages.urls(in: html) } }
            return await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        #expect(results.count == 32)
        #expect(results.allSatisfy { $0 == results[0] && $0.count == 40 })
    }
}
