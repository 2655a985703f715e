import Foundation
import Testing
import PMLoading
@testable import PhotoMirror

/// The fetcher follows each paged API as PMFeeds says (limits, truncation, signing) without
/// knowing the API: these run it against canned pages.
@Suite struct FeedFetcherPagingTests {
    /// Answers Marvel-shaped pages by `offset` and Flickr-REST-shaped ones by `page`, and remembers what was asked.
    final class PagedAPI: HTTPLoading {
        let requested = Requests()

        actor Requests {
            var urls: [String] = []
            func append(_ url: String) { urls.append(url) }
        }

        func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
            await requested.append(request.url)
            let query = URLComponents(string: request.url)?.queryItems ?? []
            func number(_ name: String) -> Int? { query.last { $0.name == name }?.value.flatMap { Int($0) } }
            let body = request.url.contains("/v1/public/")
                ? Self.marvelPage(offset: number("offset") ?? 0, limit: 20, total: 45)
                : Self.flickrPage(page: number("page") ?? 1, pages: 3, perPage: 2)
            return HTTPResponse(url: request.url, status: 200, headers: ["content-type": "application/json"],
                                body: Array(body.utf8))
        }

        static func marvelPage(offset: Int, limit: Int, total: Int) -> String {
            let ids = offset..<min(offset + limit, total)
            let results = ids.map { #"{"id": \#($0), "name": "c\#($0)", "thumbnail": {"path": "http://img.test/\#($0)", "extension": "jpg"}}"# }
            return #"{"code": 200, "data": {"offset": \#(offset), "limit": \#(limit), "total": \#(total), "count": \#(ids.count), "#
                + #""results": [\#(results.joined(separator: ","))]}}"#
        }

        static func flickrPage(page: Int, pages: Int, perPage: Int) -> String {
            let photos = (0..<perPage).map { offset -> String in
                let id = (page - 1) * perPage + offset
                return #"{"id": "\#(id)", "title": "p\#(id)", "url_m": "http://img.test/\#(id).jpg"}"#
            }
            return #"{"photos": {"page": \#(page), "pages": \#(pages), "perpage": \#(perPage), "total": "\#(pages * perPage)", "#
                + #""photo": [\#(photos.joined(separator: ","))]}, "stat": "ok"}"#
        }
    }

    private func options(maxPages: Int = 1, maxItems: Int = 100) -> LoadingOptions {
        var options = LoadingOptions()
        options.maxPages = maxPages
        options.maxItems = maxItems
        options.marvelKeys = MarvelKeys(publicKey: "pub123", privateKey: "priv456")
        return options
    }

    @Test func marvelRunsPastPagesToMaxItemsAndSignsEveryRequest() async throws {
        let api = PagedAPI()
        let fetcher = FeedFetcher(loader: api, options: options(maxPages: 1, maxItems: 30))
        let feed = try await fetcher.fetch("https://gateway.marvel.com/v1/public/characters?limit=20")
        #expect(try feed.read().items.map(\.id) == (0..<30).map { "\($0)" })
        let urls = await api.requested.urls
        #expect(urls.count == 2, "\(urls)")
        #expect(urls.allSatisfy { $0.contains("apikey=pub123") && $0.contains("hash=") && !$0.contains("priv456") })
        #expect(urls.last?.contains("offset=20") == true)
    }

    @Test func marvelRunsToItsTotal() async throws {
        let api = PagedAPI()
        let feed = try await FeedFetcher(loader: api, options: options(maxPages: 1, maxItems: 1000))
            .fetch("https://gateway.marvel.com/v1/public/characters")
        #expect(try feed.read().items.count == 45)
        #expect(await api.requested.urls.count == 3)
    }

    @Test func flickrSearchStopsAtMaxPagesUnsignedAndUntruncated() async throws {
        let api = PagedAPI()
        let feed = try await FeedFetcher(loader: api, options: options(maxPages: 2, maxItems: 3))
            .fetch("https://api.flickr.com/services/rest/?method=flickr.photos.search&extras=url_m&format=json&nojsoncallback=1")
        #expect(try feed.read().items.count == 4, "--max-items stops the paging but cuts only offset-paged feeds")
        let urls = await api.requested.urls
        #expect(urls.count == 2, "\(urls)")
        #expect(urls.allSatisfy { !$0.contains("hash=") && !$0.contains("apikey=") })
    }
}
