import Foundation

/// Which URL one `<img>` stands for, from its attributes alone (the HTML and XHTML readers share it).
enum HTMLImageAttributes {
    /// One URL per image: the largest `srcset` (or lazy-loading `data-srcset`) candidate, then a
    /// lazy-loading `data-src`/`data-lazy-src` when `src` is only a placeholder, then `src`.
    /// Nil for tracking pixels (declared 1×1, or 0 wide or high), hidden images and `data:` URIs,
    /// which are no photos worth mirroring. `attribute` looks a lowercase name up.
    static func url(_ attribute: (String) -> String?) -> String? {
        guard !isTrackingPixel(attribute) else { return nil }
        let src = FeedText.nonBlank(attribute("src"))
        for name in ["srcset", "data-srcset"] {
            if let value = attribute(name), let candidate = SrcSet(value).largest { return candidate.url }
        }
        if src.map(isPlaceholder) ?? true {
            for name in ["data-src", "data-lazy-src", "data-original"] {
                if let lazy = FeedText.nonBlank(attribute(name)), !isDataURI(lazy) { return lazy }
            }
        }
        guard let src, !isDataURI(src) else { return nil }
        return src
    }

    static func isDataURI(_ url: String) -> Bool {
        let scheme = url.utf8.drop { $0 == 0x20 || (0x09...0x0D).contains($0) }.prefix(5)
        return scheme.count == 5 && zip(scheme, "data:".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    private static func isTrackingPixel(_ attribute: (String) -> String?) -> Bool {
        let width = attribute("width").flatMap(pixels), height = attribute("height").flatMap(pixels)
        if width == 0 || height == 0 || (width == 1 && height == 1) { return true }
        let style = attribute("style")?.lowercased().filter { !$0.isWhitespace } ?? ""
        return style.contains("display:none") || style.contains("visibility:hidden")
    }

    /// `1`, `1px`, ` 0 `: the leading integer of a dimension attribute, as browsers read it.
    private static func pixels(_ value: String) -> Int? {
        let digits = value.utf8.drop { $0 == 0x20 || $0 == 0x09 }.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// Names lazy-loading scripts give the stand-in they put in `src` until the real image loads.
    private static let placeholderWords = ["blank", "spacer", "pixel", "1x1", "transparent", "placeholder", "lazy", "empty", "loading"]

    /// A `data:` URI, or a GIF named like a stand-in (`/img/blank.gif`, `spacer.gif`).
    private static func isPlaceholder(_ src: String) -> Bool {
        if isDataURI(src) { return true }
        let file = (src.split(separator: "?").first.map(String.init) ?? src).split(separator: "/").last?.lowercased() ?? ""
        return file.hasSuffix(".gif") && placeholderWords.contains { file.contains($0) }
    }
}
