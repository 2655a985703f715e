import Foundation
import Testing
import PMFeeds

@Suite struct FeedRequestSignerTests {
    // Marvel's documented example: ts=1, private key "abcd", public key "1234".
    private let signer = FeedRequestSigner(marvelKeys: MarvelKeys(publicKey: "1234", privateKey: "abcd"))
    private let tsOne = Date(timeIntervalSince1970: 1)

    private func requested(_ text: String, by signer: FeedRequestSigner? = nil) -> String {
        (signer ?? self.signer).requestURL(for: URL(string: text)!, at: tsOne).absoluteString
    }

    @Test func marvelPublicPathsAreSignedWithTheTimestampInSeconds() {
        #expect(requested("https://gateway.marvel.com/v1/public/characters?limit=20")
                == "https://gateway.marvel.com/v1/public/characters?limit=20&ts=1&apikey=1234&hash=ffd275c5130566a2916217b101f26150")
        let later = signer.requestURL(for: URL(string: "https://gateway.marvel.com/v1/public/comics")!,
                                      at: Date(timeIntervalSince1970: 1_700_000_000.9)).absoluteString
        #expect(later.contains("ts=1700000000&"))
    }

    @Test func thePathDecidesNotTheHost() {
        #expect(requested("http://127.0.0.1:8080/v1/public/comics?offset=20").contains("&hash="))
    }

    @Test(arguments: [
        "https://api.flickr.com/services/rest/?method=flickr.photos.search&page=2",
        "https://www.flickr.com/services/feeds/photos_public.gne?format=json",
        "http://i.annihil.us/u/prod/marvel/i/mg/3/40/4bb4680432f73/standard_xlarge.jpg",
        "https://example.com/api/v1/public/characters",
        "https://gateway.marvel.com/v1/publicx/characters",
        "https://gateway.marvel.com/v1/other/characters?x=1",
        "https://example.com/feed.xml",
    ])
    func otherURLsGoOutAsGiven(text: String) {
        #expect(requested(text) == text)
    }

    @Test(arguments: ["file:///v1/public/characters", "ftp://gateway.marvel.com/v1/public/characters"])
    func nonHTTPURLsAreNeverSigned(text: String) {
        #expect(requested(text) == text)
    }

    @Test func withoutKeysNothingIsSigned() {
        #expect(requested("https://gateway.marvel.com/v1/public/characters", by: FeedRequestSigner())
                == "https://gateway.marvel.com/v1/public/characters")
    }

    @Test func thePrivateKeyNeverAppearsInTheURL() {
        let keys = MarvelKeys(publicKey: "pub123", privateKey: "priv456")
        let signed = requested("https://gateway.marvel.com/v1/public/series", by: FeedRequestSigner(marvelKeys: keys))
        #expect(signed.contains("apikey=pub123"))
        #expect(!signed.contains("priv456"))
    }
}
