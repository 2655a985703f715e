import Testing
@testable import PhotoMirror

/// What `serve` accepts as a path, and which files it shows as what.
@Suite struct ServeRequestTests {
    @Test func pathsBecomeDecodedSegments() throws {
        let path = try #require(SitePath(raw: "/thumbs/40x40/ab/caf%C3%A9%20x.png?v=1"))
        #expect(path.segments == ["thumbs", "40x40", "ab", "café x.png"])
        #expect(!path.namesFolder)
        #expect(SitePath(raw: "/")?.segments == [])
        #expect(SitePath(raw: "/")?.namesFolder == true)
        #expect(SitePath(raw: "/feeds/k/")?.namesFolder == true)
    }

    @Test(arguments: ["/../etc/passwd", "/feeds/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E/x",
                      "/feeds%2f..%2f..%2fetc/passwd", "/a%2Fb", "/.tmp-123", "/feeds/.hidden/x", "/./index.html",
                      "/a//b", "/a%00b", "/a%zzb", "/a%2", "/%ff", "relative", "", "/a%5cb"])
    func escapesAndHiddenFilesAreRefused(raw: String) {
        #expect(SitePath(raw: raw) == nil)
    }

    @Test func onlyGalleryFileKindsAreServed() {
        #expect(ServedFiles.contentType(of: "index.html") == "text/html; charset=utf-8")
        #expect(ServedFiles.contentType(of: "feeds/k/manifest.json") == "application/json")
        #expect(ServedFiles.contentType(of: "thumbs/40x40/ab/ab.png") == "image/png")
        #expect(ServedFiles.contentType(of: "originals/ab/ab.jpg") == "image/jpeg")
        #expect(ServedFiles.contentType(of: "originals/ab/ab.JPEG") == "image/jpeg")
        #expect(ServedFiles.contentType(of: "a/style.css") == "text/css; charset=utf-8")
        #expect(ServedFiles.contentType(of: "a/app.js") == "text/javascript; charset=utf-8")
        #expect(ServedFiles.contentType(of: "a/icon.svg") == "image/svg+xml")
        #expect(ServedFiles.contentType(of: "a/photo.webp") == "image/webp")
        for refused in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "lock", "originals/ab/.tmp-1.jpg",
                        "notes.txt", "Makefile", "feeds/k/.png", "a/index.sqlite.png", ""] {
            #expect(ServedFiles.contentType(of: refused) == nil, "\(refused)")
        }
    }

    @Test func contentAddressedFilesAreTaggedByHash() {
        let hash = String(repeating: "ab", count: 32)
        #expect(EntityTag.of(relativePath: "originals/ab/\(hash).jpg", size: 5, modifiedNanoseconds: 9) == "\"\(hash)\"")
        #expect(EntityTag.of(relativePath: "thumbs/80x80/ab/\(hash).png", size: 5, modifiedNanoseconds: 9)
            == "\"\(hash)-80x80\"")
        #expect(EntityTag.of(relativePath: "index.html", size: 255, modifiedNanoseconds: 4096) == "\"ff-1000\"")
        #expect(EntityTag.of(relativePath: "originals/ab/not-a-hash.jpg", size: 1, modifiedNanoseconds: 1) == "\"1-1\"")
        #expect(EntityTag.matches(ifNoneMatch: "\"x\", W/\"y\"", tag: "\"y\""))
        #expect(EntityTag.matches(ifNoneMatch: "*", tag: "\"y\""))
        #expect(!EntityTag.matches(ifNoneMatch: "\"x\"", tag: "\"y\""))
        #expect(!EntityTag.matches(ifNoneMatch: nil, tag: "\"y\""))
    }
}
