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

    @Test func onlyThePublishedTreeIsServed() {
        let hash = "ab" + String(repeating: "0", count: 62), key = "0123456789abcdef"
        #expect(ServedFiles.contentType(of: "index.html") == "text/html; charset=utf-8")
        #expect(ServedFiles.contentType(of: "favicon.svg") == "image/svg+xml")
        for name in ["index.html", "page-2.html", "page-17.html"] {
            #expect(ServedFiles.contentType(of: "feeds/\(key)/\(name)") == "text/html; charset=utf-8", "\(name)")
        }
        for name in ["manifest.json", "feed.json", "card.json"] {
            #expect(ServedFiles.contentType(of: "feeds/\(key)/\(name)") == "application/json", "\(name)")
        }
        #expect(ServedFiles.contentType(of: "thumbs/40x40/ab/\(hash).png") == "image/png")
        #expect(ServedFiles.contentType(of: "thumbs/1280x960/ab/\(hash).png") == "image/png")
        #expect(ServedFiles.contentType(of: "originals/ab/\(hash).jpg") == "image/jpeg")
        #expect(ServedFiles.contentType(of: "originals/ab/\(hash).JPEG") == "image/jpeg")
        #expect(ServedFiles.contentType(of: "originals/ab/\(hash).webp") == "image/webp")
        #expect(ServedFiles.contentType(of: "originals/ab/\(hash).heic") == "image/heic")
        for refused in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "lock", "config.json", ".sync-state.json",
                        "originals/ab/.tmp-1.jpg", "notes.txt", "Makefile", "a/style.css", "a/app.js", "a/icon.svg",
                        "feeds/k/manifest.json", "feeds/\(key)/notes.json", "feeds/\(key)/page-1.html",
                        "feeds/\(key)/page-02.html", "feeds/\(key)/page-x.html", "feeds/\(key)/x/index.html",
                        "feeds/config.json", "feeds/0123456789ABCDEF/index.html", "originals/ab/ab.jpg",
                        "originals/cd/\(hash).jpg", "originals/ab/\(hash).txt", "originals/ab/\(hash).jpg.json",
                        "originals/ab/\(hash.uppercased()).jpg", "thumbs/40x40/ab/\(hash).jpg", "thumbs/big/ab/\(hash).png",
                        "thumbs/040x40/ab/\(hash).png", "thumbs/ab/\(hash).png", "favicon.svg/x", "x/index.html", ""] {
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
