import Testing
import PMLoading

@Suite struct ConditionalHeadersTests {
    @Test func bothValidatorsAreSent() {
        #expect(HTTPRequest.conditionalHeaders(etag: "\"abc\"", lastModified: "Tue, 01 Apr 2025 10:00:00 GMT")
            == ["If-None-Match": "\"abc\"", "If-Modified-Since": "Tue, 01 Apr 2025 10:00:00 GMT"])
    }

    @Test func eitherAloneIsSent() {
        #expect(HTTPRequest.conditionalHeaders(etag: "W/\"1\"", lastModified: nil) == ["If-None-Match": "W/\"1\""])
        #expect(HTTPRequest.conditionalHeaders(etag: nil, lastModified: "x") == ["If-Modified-Since": "x"])
    }

    @Test func aServerWithoutValidatorsGetsAnUnconditionalRequest() {
        #expect(HTTPRequest.conditionalHeaders(etag: nil, lastModified: nil).isEmpty)
        #expect(HTTPRequest.conditionalHeaders(etag: "", lastModified: "").isEmpty)
        var request = HTTPRequest(url: "http://a.test/feed")
        request.addConditions(etag: nil, lastModified: nil)
        #expect(request.headers.isEmpty)
    }
}
