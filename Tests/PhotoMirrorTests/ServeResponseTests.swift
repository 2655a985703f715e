import Testing
@testable import PhotoMirror

/// Ranges, conditional requests and caching headers, decided before any byte is sent.
@Suite struct ServeResponseTests {
    @Test func singleRangesArePartsAndOthersTheWholeFile() {
        #expect(ByteRange.parse("bytes=0-99", size: 1000) == .part(offset: 0, length: 100))
        #expect(ByteRange.parse("bytes=900-", size: 1000) == .part(offset: 900, length: 100))
        #expect(ByteRange.parse("bytes=-10", size: 1000) == .part(offset: 990, length: 10))
        #expect(ByteRange.parse("bytes=-5000", size: 1000) == .part(offset: 0, length: 1000))
        #expect(ByteRange.parse("bytes=990-5000", size: 1000) == .part(offset: 990, length: 10))
        #expect(ByteRange.parse("bytes=1000-", size: 1000) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", size: 1000) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=0-", size: 0) == .unsatisfiable)
        for ignored in [nil, "bytes=5-1", "bytes=0-1,5-9", "items=0-1", "bytes=a-b", "bytes=-", "bytes=+1-2"] {
            #expect(ByteRange.parse(ignored, size: 1000) == .whole, "\(ignored ?? "nil")")
        }
    }

    static let hash = String(repeating: "0f", count: 32)
    static let original = ResponsePlan.File(relativePath: "originals/0f/\(hash).jpg", contentType: "image/jpeg",
                                            size: 1000, modifiedNanoseconds: 1)
    static let page = ResponsePlan.File(relativePath: "feeds/k/index.html", contentType: "text/html; charset=utf-8",
                                        size: 300, modifiedNanoseconds: 7)

    func header(_ plan: ResponsePlan, _ name: String) -> String? {
        plan.headers.first { $0.name == name }?.value
    }

    @Test func contentAddressedFilesAreImmutableAndPagesShortLived() {
        let image = ResponsePlan.forFile(Self.original, conditions: RequestConditions(), range: nil, ifRange: nil)
        #expect(image.status == 200)
        #expect(image.body == .file(offset: 0, length: 1000))
        #expect(header(image, "Cache-Control") == "public, max-age=31536000, immutable")
        #expect(header(image, "ETag") == "\"\(Self.hash)\"")
        #expect(header(image, "Content-Type") == "image/jpeg")
        let page = ResponsePlan.forFile(Self.page, conditions: RequestConditions(), range: nil, ifRange: nil)
        #expect(header(page, "Cache-Control") == "public, max-age=60")
        #expect(header(page, "ETag") == "\"12c-7\"")
    }

    @Test func aMatchingTagIsNotModified() {
        let plan = ResponsePlan.forFile(Self.original, conditions: RequestConditions(ifNoneMatch: "\"\(Self.hash)\""), range: "bytes=0-1", ifRange: nil)
        #expect(plan.status == 304)
        #expect(plan.body == .none)
        #expect(header(plan, "ETag") == "\"\(Self.hash)\"")
        #expect(header(plan, "Cache-Control") != nil)
        #expect(ResponsePlan.forFile(Self.page, conditions: RequestConditions(ifNoneMatch: "\"12c-8\""), range: nil, ifRange: nil).status == 200)
    }

    @Test func rangesAnswer206Or416() {
        let part = ResponsePlan.forFile(Self.original, conditions: RequestConditions(), range: "bytes=10-19", ifRange: nil)
        #expect(part.status == 206)
        #expect(part.body == .file(offset: 10, length: 10))
        #expect(header(part, "Content-Range") == "bytes 10-19/1000")
        let past = ResponsePlan.forFile(Self.original, conditions: RequestConditions(), range: "bytes=5000-", ifRange: nil)
        #expect(past.status == 416)
        #expect(past.body == .none)
        #expect(header(past, "Content-Range") == "bytes */1000")
        // If-Range with another version's tag: the whole current file instead of a mismatched part.
        let stale = ResponsePlan.forFile(Self.original, conditions: RequestConditions(), range: "bytes=10-19", ifRange: "\"old\"")
        #expect(stale.status == 200)
        let current = ResponsePlan.forFile(Self.original, conditions: RequestConditions(), range: "bytes=10-19", ifRange: "\"\(Self.hash)\"")
        #expect(current.status == 206)
    }

    @Test func errorsAreSmallPlainTextThatIsNotCached() {
        let missing = ResponsePlan.notFound()
        #expect(missing.status == 404)
        #expect(missing.body == .text("404 Not Found\n"))
        #expect(header(missing, "Cache-Control") == "no-store")
        let post = ResponsePlan.methodNotAllowed()
        #expect(post.status == 405)
        #expect(header(post, "Allow") == "GET, HEAD")
        #expect(header(ResponsePlan.redirect(to: "/feeds/k/"), "Location") == "/feeds/k/")
    }
}
