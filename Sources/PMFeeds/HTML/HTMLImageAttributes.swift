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
        url.unicodeScalars.drop { $0.properties.isWhitespace }.prefix(5).map { $0.isASCII ? UInt8($0.value) | 0x20 : 0 }
            .elementsEqual("data:".utf8)
    }

    private static func isTrackingPixel(_ attribute: (String) -> String?) -> Bool {
        let width = attribute("width").flatMap(pixels), height = attribute("height").flatMap(pixels)
        if width == 0 || height == 0 || (width == 1 && height == 1) { return true }
        let style = attribute("style")?.lowercased().filter { !$0.isWhitespace } ?? ""
        return style.contains("display:none") || style.contains("visibility:hidden")
    }

    /// `1`, `1px`, ` 0 `: the leading integer of a dimension attribute, as browsers read it.
    private static func pixels(_ value: String) -> Int? {
        let digits = value.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty || digits.count > 6 ? nil : Int(digits)
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
