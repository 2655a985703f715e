import Foundation
import Testing
@testable import PhotoMirror

/// Conditional requests (RFC 9110 §13) against a file's ETag and modification time.
@Suite struct ServeConditionsTests {
    private let tag = "\"abc\""
    /// Sun, 06 Nov 1994 08:49:37 GMT
    private let modified = 784_111_777

    @Test func lastModifiedIsAnIMFFixdate() {
        #expect(LastModified.header(seconds: modified) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(LastModified.header(seconds: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test func ifMatchFailsUnlessTheTagIsTheSameAndStrong() {
        #expect(RequestConditions(ifMatch: "\"other\"").evaluate(tag: tag, modifiedSeconds: modified) == .preconditionFailed)
        #expect(RequestConditions(ifMatch: "W/\"abc\"").evaluate(tag: tag, modifiedSeconds: modified) == .preconditionFailed)
        #expect(RequestConditions(ifMatch: "\"x\", \"abc\"").evaluate(tag: tag, modifiedSeconds: modified) == .proceed)
        #expect(RequestConditions(ifMatch: "*").evaluate(tag: tag, modifiedSeconds: modified) == .proceed)
        // If-Match wins over If-Unmodified-Since.
        #expect(RequestConditions(ifMatch: "\"abc\"", ifUnmodifiedSince: "Sat, 01 Jan 1994 00:00:00 GMT")
            .evaluate(tag: tag, modifiedSeconds: modified) == .proceed)
    }

    @Test func ifUnmodifiedSinceFailsForANewerFile() {
        #expect(RequestConditions(ifUnmodifiedSince: "Sat, 01 Jan 1994 00:00:00 GMT")
            .evaluate(tag: tag, modifiedSeconds: modified) == .preconditionFailed)
        #expect(RequestConditions(ifUnmodifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT")
            .evaluate(tag: tag, modifiedSeconds: modified) == .proceed)
        #expect(RequestConditions(ifUnmodifiedSince: "not a date").evaluate(tag: tag, modifiedSeconds: modified) == .proceed)
    }

    @Test func ifModifiedSinceIsNotModifiedUpToTheFilesTime() {
        for date in ["Sun, 06 Nov 1994 08:49:37 GMT", "Mon, 07 Nov 1994 00:00:00 GMT"] {
            #expect(RequestConditions(ifModifiedSince: date).evaluate(tag: tag, modifiedSeconds: modified) == .notModified)
        }
        #expect(RequestConditions(ifModifiedSince: "Sun, 06 Nov 1994 08:49:36 GMT")
            .evaluate(tag: tag, modifiedSeconds: modified) == .proceed)
        #expect(RequestConditions(ifModifiedSince: "garbage").evaluate(tag: tag, modifiedSeconds: modified) == .proceed)
        // If-None-Match wins over If-Modified-Since, both ways.
        #expect(RequestConditions(ifNoneMatch: "\"other\"", ifModifiedSince: "Mon, 07 Nov 1994 00:00:00 GMT")
            .evaluate(tag: tag, modifiedSeconds: modified) == .proceed)
        #expect(RequestConditions(ifNoneMatch: "\"abc\"").evaluate(tag: tag, modifiedSeconds: modified) == .notModified)
    }

    @Test func answersCarryLastModifiedAndFailWith412() {
        let file = ResponsePlan.File(relativePath: "index.html", contentType: "text/html", size: 10,
                                     modifiedNanoseconds: modified * 1_000_000_000 + 5)
        let plan = ResponsePlan.forFile(file, conditions: RequestConditions(), range: nil, ifRange: nil)
        #expect(plan.headers.contains(.init("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")))
        let failed = ResponsePlan.forFile(file, conditions: RequestConditions(ifMatch: "\"no\""), range: nil, ifRange: nil)
        #expect(failed.status == 412)
        let byDate = ResponsePlan.forFile(file, conditions: RequestConditions(), range: "bytes=0-1",
                                          ifRange: "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(byDate.status == 206)
    }

    @Test func anHTTP11RequestWithoutHostIsABadRequest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = try StaticSite(root: folder.path)
        #expect(site.answer(method: "GET", rawPath: "/index.html", version: "HTTP/1.1") { _ in nil }.plan.status == 400)
        #expect(site.answer(method: "GET", rawPath: "/index.html", version: "HTTP/1.0") { _ in nil }.plan.status == 404)
        #expect(site.answer(method: "GET", rawPath: "/index.html", version: "HTTP/1.1") { $0 == "Host" ? "x" : nil }
            .plan.status == 404)
    }
}
