import Foundation
import PMCache
import Testing
@testable import PhotoMirror

/// Which answers of `serve` count as a reader using a file.
@Suite struct CountedAccessTests {
    static let hash = String(repeating: "0f", count: 32)
    static let original = "originals/0f/\(hash).jpg", thumbnail = "thumbs/40x40/0f/\(hash).png"

    @Test func sentAndRevalidatedContentCounts() {
        for status in [200, 206, 304] {
            #expect(CountedAccess.of(method: "GET", status: status, relativePath: Self.original) == .original(ImageHash(Self.hash)))
            #expect(CountedAccess.of(method: "GET", status: status, relativePath: Self.thumbnail)
                == .thumbnail(ImageHash(Self.hash), size: "40x40"))
        }
    }

    @Test func headsFailuresAndOtherFilesDoNot() {
        #expect(CountedAccess.of(method: "HEAD", status: 200, relativePath: Self.thumbnail) == nil)
        for status in [301, 404, 405, 416] {
            #expect(CountedAccess.of(method: "GET", status: status, relativePath: Self.thumbnail) == nil, "\(status)")
        }
        #expect(CountedAccess.of(method: "GET", status: 200, relativePath: "index.html") == nil)
        #expect(CountedAccess.of(method: "GET", status: 200, relativePath: "feeds/k/manifest.json") == nil)
    }

    @Test func theSiteNamesTheFileItAnsweredWith() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pm-serve-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("thumbs/40x40/0f"), withIntermediateDirectories: true)
        try Data("png".utf8).write(to: root.appendingPathComponent(Self.thumbnail))
        try Data("<html>".utf8).write(to: root.appendingPathComponent("index.html"))
        let site = try StaticSite(root: root.path)
        func answer(_ method: String, _ path: String, _ headers: [String: String] = [:]) -> StaticSite.Answer {
            let answer = site.answer(method: method, rawPath: path, version: "HTTP/1.1") { name in
                name == "Host" ? "127.0.0.1" : headers[name]
            }
            if answer.fd >= 0 { close(answer.fd) }
            return answer
        }
        let counted = AccessedFile.thumbnail(ImageHash(Self.hash), size: "40x40")
        #expect(answer("GET", "/" + Self.thumbnail).accessed == counted)
        #expect(answer("GET", "/" + Self.thumbnail, ["Range": "bytes=0-0"]).accessed == counted)
        let revalidated = answer("GET", "/" + Self.thumbnail, ["If-None-Match": "\"\(Self.hash)-40x40\""])
        #expect(revalidated.plan.status == 304)
        #expect(revalidated.accessed == counted)
        #expect(answer("HEAD", "/" + Self.thumbnail).accessed == nil)
        #expect(answer("GET", "/thumbs/80x80/0f/\(Self.hash).png").plan.status == 404)
        #expect(answer("GET", "/thumbs/80x80/0f/\(Self.hash).png").accessed == nil)
        #expect(answer("GET", "/").accessed == nil)
    }
}
