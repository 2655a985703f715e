import Foundation
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

    @Test func everyVariantPacksWithItsOwnExtension() {
        let variants = ["40x40", "40x40.webp", "40x40-contain", "80x60-contain.avif", "40x40-q60.jpg",
                        "40x40-contain-q90.webp", "65535x65535-contain-q100.avif"]
        var folders = Set<UInt64>(), names = Set<ContentName>()
        for variant in variants {
            let path = CacheLayout.thumbnailPath(originalSHA256: sha, size: variant)
            guard case .content(let name) = CachePath(path) else {
                Issue.record("\(path) packs")
                continue
            }
            #expect(CachePath(path).description == path)
            #expect(name.sizeText == variant)
            #expect(AccessedFile(relativePath: path) == .thumbnail(ImageHash(sha), size: variant))
            #expect(CachePath(path).isOriginal == false)
            // The index names a thumbnail by hash and size; both spellings give one key.
            let fromRow = Array(sha.utf8).withUnsafeBufferPointer { hash in
                Array(variant.utf8).withUnsafeBufferPointer { CachePath(thumbnailOf: hash, size: $0) }
            }
            #expect(fromRow == CachePath(path))
            folders.insert(name.folderID)
            names.insert(name)
        }
        #expect(folders.count == variants.count && names.count == variants.count)
        #expect(CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40-contain.webp")
                == "thumbs/40x40-contain.webp/0f/\(sha).webp")
    }

    /// A prune names 100 000 images' thumbnails from one parse per size: the same key and text
    /// as each path spelled and parsed, for sizes that pack and sizes kept as text.
    @Test func aThumbnailNameMadeFromItsSizesTemplateIsTheParsedOne() {
        let sizes = ["40x40", "65535x1", "40x40.webp", "80x60-contain.avif", "40x40-contain-q90.webp",
                     "040x40", "40x40.png", "0x0", "", ".", "40x40-cover.webp"]
        var generator = SystemRandomNumberGenerator()
        let hashes = [String(repeating: "0", count: 64), String(repeating: "f", count: 64), sha]
            + (0..<20).map { _ in (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined() }
        var sets = SizeSets(), number = SizeSets.none
        for size in sizes { number = sets.adding(size, to: number) }
        #expect(sets.adding("40x40", to: number) == number)
        for hash in hashes {
            var made: [CachePath] = []
            sets.forEachPath(number, of: ImageHash(hash)) { made.append($0) }
            let parsed = sizes.map { CachePath(CacheLayout.thumbnailPath(originalSHA256: hash, size: $0)) }
            #expect(made == parsed)
            #expect(made.map(\.description) == sizes.map { CacheLayout.thumbnailPath(originalSHA256: hash, size: $0) })
        }
        #expect(ContentName.thumbnailTemplate(size: "40x40") != nil && ContentName.thumbnailTemplate(size: "040x40") == nil)
    }

    @Test func variantFoldersOffTheSpellingStayText() {
        let others = [
            "thumbs/40x40.webp/0f/\(sha).png",            // extension not the variant's
            "thumbs/40x40/0f/\(sha).webp",                // a plain size is PNG
            "thumbs/40x40.png/0f/\(sha).png",             // PNG is not spelled
            "thumbs/40x40-q75.webp/0f/\(sha).webp",       // the default quality is not spelled
            "thumbs/40x40-cover.webp/0f/\(sha).webp",
            "thumbs/40x40.jpeg/0f/\(sha).jpg",
            "thumbs/lost+found/0f/\(sha).png",
        ]
        for path in others {
            #expect(CachePath(path) == .text(path), "\(path)")
            #expect(AccessedFile(relativePath: path) == nil)
        }
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
        for tags in [[], ["a"], ["a b", "c"], ["é", "日本"], ["a/b"], ["quote\"d", "back\\slash"], ["tab\tin"],
                     ["\u{0}\u{1F}\u{7F}", "\r\n", "📷 \"x\" \\ y"]] as [[String]] {
            #expect(TagList.decode(TagList.encode(tags)) == tags)
            let decoded = try? JSONDecoder().decode([String].self, from: Data(TagList.encode(tags).utf8))
            #expect(decoded == tags, "\(TagList.encode(tags))")
        }
        // No escape where none is needed, so the hand-written reader takes it.
        #expect(TagList.encode(["a/b", "é"]) == #"["a/b","é"]"#)
        #expect(TagList.decode(#"[ "x" , "y" ]"#) == ["x", "y"])
        #expect(TagList.decode("[\"a\", \"b\"] trailing") == [])
        #expect(TagList.decode(nil) == [])
    }
}
