import PMCache
import PMImaging
import PMSupport

/// Which files of a cache the server shows, and as what: only the published tree that the
/// gallery is made of (cache-layout.md), named exactly as photomirror names them. Everything
/// else in the folder — the index and its journals, the writer lock, `config.json` (which may
/// name a bucket), `.sync-state.json`, temp and hidden files, and whatever else someone put
/// there — is never served, even through a symlink (the check runs on the resolved path too).
public enum ServedFiles {
    static let html = "text/html; charset=utf-8", json = "application/json", svg = "image/svg+xml"
    static let png = "image/png"

    /// The originals' extensions come from the formats photomirror reads.
    static let originalTypes: [String: String] = {
        var types: [String: String] = [:]
        for format in ImageFormat.all {
            for name in [format.fileExtension] + format.otherExtensions { types[name] = format.mimeType }
        }
        return types
    }()

    /// The files of a feed's folder besides its numbered pages.
    static let feedFiles = [GalleryPaging.fileName(page: 1): html, CacheLayout.manifestFile: json,
                            CacheLayout.jsonFeedFile: json, GalleryCardFile.fileName: json]

    /// The Content-Type for a cache-relative path, or nil when it is not published.
    public static func contentType(of relativePath: String) -> String? {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        switch (parts.first, parts.count) {
        case (CacheLayout.galleryFile?, 1): return html
        case (PageShell.iconFile?, 1): return svg
        case (CacheLayout.feedsFolder?, 3):
            guard isHex(parts[1], count: 16) else { return nil }
            return feedFiles[String(parts[2])] ?? (isLaterPage(parts[2]) ? html : nil)
        case (CacheLayout.originalsFolder?, 3):
            guard let (hash, type) = hashName(parts[2]), isFanOut(parts[1], of: hash) else { return nil }
            return originalTypes[type]
        case (CacheLayout.thumbnailsFolder?, 4):
            guard let (hash, type) = hashName(parts[3]), isFanOut(parts[2], of: hash) else { return nil }
            if isSize(parts[1]) { return type == "png" ? png : nil }
            // Another variant (`40x40-contain.webp`): its files have the extension it names.
            guard let variant = ThumbnailVariantName(parsing: parts[1]), type == variant.format.fileExtension,
                  parts[3].hasSuffix(type) else { return nil }
            return variant.format.mimeType
        default:
            return nil
        }
    }

    /// Files under originals/ and thumbs/ are named by content: a URL's bytes never change.
    public static func isContentAddressed(_ relativePath: String) -> Bool {
        CacheLayout.contentFolders.contains { relativePath.hasPrefix($0 + "/") }
    }

    /// `page-2.html`, `page-3.html`, …: what `GalleryPaging` names the pages after the first.
    private static func isLaterPage(_ name: Substring) -> Bool {
        guard name.hasPrefix("page-"), name.hasSuffix(".html") else { return false }
        let number = name.dropFirst(5).dropLast(5)
        guard let first = number.first, first != "0", number.count <= 9, number.allSatisfy(\.isASCIIDigit),
              let page = Int(number) else { return false }
        return page >= 2
    }

    /// `<sha256>.<ext>` with a lower-case hex hash: the hash and the extension (lower-cased).
    private static func hashName(_ name: Substring) -> (Substring, String)? {
        guard let dot = name.firstIndex(of: ".") else { return nil }
        let hash = name[..<dot], type = name[name.index(after: dot)...]
        guard isHex(hash, count: 64), !type.isEmpty, !type.contains(".") else { return nil }
        return (hash, type.lowercased())
    }

    private static func isFanOut(_ folder: Substring, of hash: Substring) -> Bool {
        folder == hash.prefix(2)
    }

    /// `40x40`: what `--size` names a thumbnail folder.
    private static func isSize(_ name: Substring) -> Bool {
        let sides = name.split(separator: "x", omittingEmptySubsequences: false)
        return sides.count == 2 && sides.allSatisfy { side in
            !side.isEmpty && side.count <= 5 && side.first != "0" && side.allSatisfy(\.isASCIIDigit)
        }
    }

    private static func isHex(_ text: Substring, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
