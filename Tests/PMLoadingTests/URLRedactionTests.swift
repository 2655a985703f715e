import PMSupport
import Testing

/// What is shown and published of a URL: no user info, no secret parameters.
@Suite struct URLRedactionTests {
    @Test(arguments: [
        ("http://user:pass@host.example/feed", "http://host.example/feed"),
        ("https://me@host.example:8443/a?b=1", "https://host.example:8443/a?b=1"),
        ("https://gateway.marvel.com/v1/public/characters?ts=1&apikey=PUB&hash=abc&limit=20",
         "https://gateway.marvel.com/v1/public/characters?limit=20"),
        ("https://api.flickr.com/services/rest?method=flickr.photos.search&api_key=K&tags=cat&format=json",
         "https://api.flickr.com/services/rest?method=flickr.photos.search&tags=cat&format=json"),
        ("https://x.example/f?access_token=T&X-Amz-Signature=S&q=1#top", "https://x.example/f?q=1#top"),
        ("https://x.example/f?api%5Fkey=K", "https://x.example/f"),
        ("https://x.example/path@with-at?q=a@b", "https://x.example/path@with-at?q=a@b"),
        ("file:///srv/feed.xml", "file:///srv/feed.xml"),
        ("http://host.example/feed?author=me", "http://host.example/feed?author=me"),
    ])
    func redacts(_ url: String, _ shown: String) {
        #expect(URLRedaction.redacted(url) == shown)
    }
}
