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

    // Bytes through `withUTF8`: every image of a feed's HTML passes here, and the generic
    // collection calls on a String's views cost several times as much.
    static func isDataURI(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            var start = 0
            while start < bytes.count, bytes[start] == 0x20 || (0x09...0x0D).contains(bytes[start]) { start += 1 }
            guard bytes.count - start >= 5 else { return false }
            return bytes[start] | 0x20 == UInt8(ascii: "d") && bytes[start + 1] | 0x20 == UInt8(ascii: "a")
                && bytes[start + 2] | 0x20 == UInt8(ascii: "t") && bytes[start + 3] | 0x20 == UInt8(ascii: "a")
                && bytes[start + 4] == UInt8(ascii: ":")
        }
    }

    private static func isTrackingPixel(_ attribute: (String) -> String?) -> Bool {
        let width = attribute("width").flatMap(pixels), height = attribute("height").flatMap(pixels)
        if width == 0 || height == 0 || (width == 1 && height == 1) { return true }
        guard let style = attribute("style") else { return false }
        let compact = style.lowercased().filter { !$0.isWhitespace }
        return compact.contains("display:none") || compact.contains("visibility:hidden")
    }

    /// `1`, `1px`, ` 0 `: the leading integer of a dimension attribute, as browsers read it.
    private static func pixels(_ value: String) -> Int? {
        var value = value
        return value.withUTF8 { bytes in
            var index = 0
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            let start = index
            var number = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - start < 7 {
                number = number * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            // A seventh digit stopped the loop: more than six are no size.
            let digits = index - start
            guard digits > 0, digits <= 6 else { return nil }
            return number
        }
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
