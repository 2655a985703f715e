import Testing
@testable import PMCache

/// Packed hashes and paths, the JSON lists bound to SQLite and the tags' fast path: exact
/// round trips, and text for anything off the layout.
@Suite struct PackedNamesTests {
    let sha = "0f" + String(repeating: "9a", count: 31)

    @Test func layoutPathsPackAndSpellBackTheSame() {
        for path in [CacheLayout.originalPath(sha256: sha, fileExtension: "jpg"),
                     CacheLayout.originalPath(sha256: sha, fileExtension: "png"),
                     CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40"),
                     CacheLayout.thumbnailPath(originalSHA256: sha, size: "65535x1")] {
            guard case .content(let name) = CachePath(path) else {
                Issue.record("\(path) packs")
                continue
            }
            #expect(CachePath(path).description == path)
            #expect(name.folder + "/" + name.name == path)
        }
        #expect(CachePath(CacheLayout.originalPath(sha256: sha, fileExtension: "jpg")).isOriginal == true)
        #expect(CachePath(CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40")).isOriginal == false)
    }

    @Test func pathsOffTheLayoutStayText() {
        let others = [
            "originals/ab/\(sha).jpg",                 // fan-out folder not the hash's
            "originals/0f/\(sha).bmp",                 // unknown extension
            "originals/0f/\(sha.uppercased()).jpg",    // upper-case hex
            "thumbs/040x40/0f/\(sha).png",             // leading zero
            "thumbs/65536x1/0f/\(sha).png",            // size out of range
            "thumbs/40x40/0f/.tmp-1",
            "feeds/k/index.html", "index.sqlite", "originals/x.jpg",
        ]
        for path in others {
            #expect(CachePath(path) == .text(path), "\(path)")
            #expect(CachePath(path).description == path)
        }
        #expect(CachePath("feeds/k/index.html").isOriginal == nil)
        #expect(CachePath("thumbs/odd.png").isOriginal == false)
    }

    @Test func hashListsAreJSONArraysWithTextEscaped() {
        #expect(JSONStringList.encode([ImageHash("a\"b\\c\u{1}")]) == #"["a\"b\\c\u0001"]"#)
        #expect(JSONStringList.encode([ImageHash(sha), ImageHash("x")]) == "[\"\(sha)\",\"x\"]")
        #expect(JSONStringList.encode(["p", "q"] as [String]) == #"["p","q"]"#)
        #expect(JSONStringList.encode([] as [String]) == "[]")
    }

    @Test func tagsReadTheSameByHandAsByJSONDecoder() {
        for tags in [[], ["a"], ["a b", "c"], ["é", "日本"], ["a/b"], ["quote\"d", "back\\slash"], ["tab\tin"]] as [[String]] {
            #expect(TagList.decode(TagList.encode(tags)) == tags)
        }
        #expect(TagList.decode(#"[ "x" , "y" ]"#) == ["x", "y"])
        #expect(TagList.decode("[\"a\", \"b\"] trailing") == [])
        #expect(TagList.decode(nil) == [])
    }
}
