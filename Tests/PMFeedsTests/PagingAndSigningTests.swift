import Foundation
import Testing
@testable import PMFeeds
import PMSupport

@Suite struct FeedPagingTests {
    private func next(_ paging: Paging, _ url: String, pagesSoFar: Int = 1, maxPages: Int = 100,
                      itemsSoFar: Int = 0, maxItems: Int = 10_000) -> String? {
        FeedPaging.nextPageURL(after: paging, current: URL(string: url)!, pagesSoFar: pagesSoFar, maxPages: maxPages,
                               itemsSoFar: itemsSoFar, maxItems: maxItems)?.absoluteString
    }

    @Test func flickrReplacesPageAndKeepsOtherItemsVerbatim() {
        let url = "https://api.flickr.com/services/rest/?method=flickr.photos.search&tags=a%2Cb&page=1&per_page=2"
        #expect(next(.flickr(page: 1, pages: 635, perPage: 2, total: 1270), url)
                == "https://api.flickr.com/services/rest/?method=flickr.photos.search&tags=a%2Cb&per_page=2&page=2")
    }

    @Test func flickrAddsPageWhenAbsent() {
        #expect(next(.flickr(page: 1, pages: 3, perPage: 10, total: nil), "https://api.flickr.com/services/rest/?method=m")
                == "https://api.flickr.com/services/rest/?method=m&page=2")
    }

    @Test func flickrStopsAtLastPageOrTotal() {
        let url = "https://api.flickr.com/services/rest/?page=635"
        #expect(next(.flickr(page: 635, pages: 635, perPage: 2, total: 1270), url) == nil)
        #expect(next(.flickr(page: 5, pages: 635, perPage: 2, total: 10), url) == nil)
        #expect(next(.flickr(page: 1, pages: 0, perPage: 100, total: 0), url) == nil)
    }

    @Test func marvelAdvancesOffsetByCountAndKeepsLimit() {
        let url = "https://gateway.marvel.com/v1/public/characters?offset=0&limit=20&ts=1&apikey=k&hash=h"
        #expect(next(.marvel(offset: 0, limit: 20, total: 1559, count: 20), url)
                == "https://gateway.marvel.com/v1/public/characters?ts=1&apikey=k&hash=h&offset=20&limit=20")
        #expect(next(.marvel(offset: 20, limit: 20, total: 1559, count: 20), "https://gateway.marvel.com/v1/public/comics")
                == "https://gateway.marvel.com/v1/public/comics?offset=40&limit=20")
    }

    @Test func marvelStopsAtTotalOrEmptyPage() {
        let url = "https://gateway.marvel.com/v1/public/characters"
        #expect(next(.marvel(offset: 1540, limit: 20, total: 1559, count: 19), url) == nil)
        #expect(next(.marvel(offset: 0, limit: 20, total: 1, count: 1), url) == nil)
        #expect(next(.marvel(offset: 40, limit: 20, total: 1559, count: 0), url) == nil)
    }

    @Test func callerLimitsStopPaging() {
        let flickr = Paging.flickr(page: 1, pages: 10, perPage: 10, total: 100)
        let url = "https://api.flickr.com/services/rest/"
        #expect(next(flickr, url, pagesSoFar: 3, maxPages: 3) == nil)
        #expect(next(flickr, url, pagesSoFar: 2, maxPages: 3) != nil)
        #expect(next(flickr, url, itemsSoFar: 50, maxItems: 50) == nil)
        #expect(next(flickr, url, itemsSoFar: 49, maxItems: 50) != nil)
        #expect(next(.marvel(offset: 0, limit: 20, total: 100, count: 20), url, itemsSoFar: 20, maxItems: 20) == nil)
    }
}

@Suite struct MarvelSignerTests {
    @Test func signsWithTheDocumentedVectorAndReplacesOldParameters() {
        // Marvel's documentation example: ts=1, private key "abcd", public key "1234".
        #expect(Digest.md5Hex("1abcd1234") == "ffd275c5130566a2916217b101f26150")
        let url = URL(string: "https://gateway.marvel.com/v1/public/characters?limit=20&ts=9&hash=stale&apikey=old")!
        let signed = MarvelSigner.sign(url, publicKey: "1234", privateKey: "abcd", timestamp: "1").absoluteString
        #expect(signed == "https://gateway.marvel.com/v1/public/characters?limit=20&ts=1&apikey=1234&hash=ffd275c5130566a2916217b101f26150")
        #expect(!signed.contains("abcd"))
    }

    @Test func anyHostWithThePublicPathIsSigned() {
        let signed = MarvelSigner.sign(URL(string: "http://127.0.0.1:8080/v1/public/comics")!,
                                       publicKey: "1234", privateKey: "abcd", timestamp: "1")
        #expect(signed.absoluteString == "http://127.0.0.1:8080/v1/public/comics?ts=1&apikey=1234&hash=ffd275c5130566a2916217b101f26150")
    }

    @Test(arguments: ["https://gateway.marvel.com/v1/other/characters?x=1", "https://www.flickr.com/v1/publicx/",
                      "https://example.com/api/v1/public/characters"])
    func otherURLsAreUnchanged(text: String) {
        let url = URL(string: text)!
        #expect(MarvelSigner.sign(url, publicKey: "1234", privateKey: "abcd", timestamp: "1") == url)
    }
}
