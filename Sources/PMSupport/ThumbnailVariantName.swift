/// How a thumbnail variant is spelled as the name of its folder under `thumbs/` and as the key
/// of its index rows and manifest entries: `<W>x<H>[-contain][-q<N>][.<ext>]`. The default variant
/// (cover, PNG, no quality) is plain `40x40`, as every cache spelled its sizes before formats
/// existed; `40x40.webp`, `40x40-contain`, `80x60-contain-q60.avif` are others. `-q<N>` appears
/// only for a lossy format and a quality other than its default, so a different `--quality`
/// makes different files and the default never moves. One variant has exactly one spelling:
/// `init?(parsing:)` accepts only that (PMCache packs paths on it), and is total over any text.
public struct ThumbnailVariantName: Sendable, Hashable, CustomStringConvertible {
    /// Sides are at most 65535 here (PMCache packs them in 16 bits); the imaging limit is lower.
    public static let maxSide = 65535

    public var width: Int
    public var height: Int
    public var fit: ThumbnailFit
    public var format: ThumbnailFormat
    /// 1...100 for a lossy format when it is not the format's default; nil otherwise.
    public private(set) var quality: Int?

    /// `quality` is dropped when the format is lossless or it is the format's default.
    public init(width: Int, height: Int, fit: ThumbnailFit = .cover, format: ThumbnailFormat = .png, quality: Int? = nil) {
        self.width = width
        self.height = height
        self.fit = fit
        self.format = format
        self.quality = format.isLossy && quality != format.defaultQuality ? quality : nil
    }

    /// The quality the encoder uses: the one asked for, else the format's default (nil for PNG).
    public var effectiveQuality: Int? { quality ?? format.defaultQuality }

    public var description: String {
        var text = "\(width)x\(height)"
        if fit == .contain { text += "-contain" }
        if let quality { text += "-q\(quality)" }
        if format != .png { text += "." + format.fileExtension }
        return text
    }

    /// The canonical spelling only: digits without leading zeros or signs, lower-case `x`, the
    /// parts in order, a quality in 1...100 that is not the format's default, no `.png`.
    public init?(parsing text: some StringProtocol) {
        var rest = Substring(text)
        var format = ThumbnailFormat.png
        if let dot = rest.lastIndex(of: ".") {
            let suffix = rest[rest.index(after: dot)...]
            guard let named = ThumbnailFormat.allCases.first(where: { $0 != .png && $0.fileExtension == suffix }) else {
                return nil
            }
            format = named
            rest = rest[..<dot]
        }
        var parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        guard let sides = parts.first else { return nil }
        parts.removeFirst()
        var fit = ThumbnailFit.cover
        if parts.first == "contain" {
            fit = .contain
            parts.removeFirst()
        }
        var quality: Int?
        if let part = parts.first, part.first == "q" {
            guard format.isLossy, let value = Self.number(part.dropFirst(), max: 100),
                  value != format.defaultQuality else { return nil }
            quality = value
            parts.removeFirst()
        }
        guard parts.isEmpty else { return nil }
        let pair = sides.split(separator: "x", omittingEmptySubsequences: false)
        guard pair.count == 2, let width = Self.number(pair[0], max: Self.maxSide),
              let height = Self.number(pair[1], max: Self.maxSide) else { return nil }
        self.init(width: width, height: height, fit: fit, format: format, quality: quality)
    }

    /// The extension of the files in a variant folder named `folder`: its `.<ext>` suffix, else
    /// `png`. Total, for folder names read back from rows that may be of any spelling.
    /// A `String`, read as bytes: every thumbnail path a page names is spelled through it, and a
    /// generic one, called from another module, was not specialized.
    public static func fileExtension(ofFolder folder: String) -> String {
        let utf8 = folder.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), utf8.index(after: dot) < utf8.endIndex else { return "png" }
        return String(folder[utf8.index(after: dot)...])
    }

    /// A decimal in 1...max, digits only, no leading zero.
    private static func number(_ text: Substring, max: Int) -> Int? {
        guard !text.isEmpty, text.count <= 5, text.first != "0",
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), value <= max else { return nil }
        return value
    }
}
