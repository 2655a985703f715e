import PMSupport

/// The exact pixel size of a thumbnail and how it is made: its fit and its file format (with a
/// lossy format's quality). Its `description` ("40x40", "40x40-contain.webp"; see
/// `ThumbnailVariantName`) is part of cache keys.
public struct ThumbnailSize: Sendable, Hashable, CustomStringConvertible {
    /// Larger sides are refused: a thumbnail is small, and the limit keeps buffers bounded.
    public static let maxSide = 4096

    public let width: Int
    public let height: Int
    public let fit: ThumbnailFit
    public let format: ThumbnailFormat
    /// A lossy format's quality when it is not the format's default; nil otherwise.
    public let quality: Int?

    /// Both sides must be in 1...maxSide; use `init?(parsing:)` for untrusted input. A quality
    /// is kept only for a lossy format and when it differs from that format's default.
    public init(width: Int, height: Int, fit: ThumbnailFit = .cover, format: ThumbnailFormat = .png, quality: Int? = nil) {
        precondition((1...Self.maxSide).contains(width) && (1...Self.maxSide).contains(height),
                     "thumbnail size \(width)x\(height) is outside 1...\(Self.maxSide)")
        let name = ThumbnailVariantName(width: width, height: height, fit: fit, format: format, quality: quality)
        self.width = width
        self.height = height
        self.fit = fit
        self.format = format
        self.quality = name.quality
    }

    /// Parses "WxH" (either case of x), digits only: "40x40", "80X60". Nil for anything else,
    /// including zero, negative or signed numbers, whitespace and sides over `maxSide`.
    public init?(parsing spec: String) {
        let parts = spec.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "X" })
        guard parts.count == 2,
              let width = Self.side(parts[0]), let height = Self.side(parts[1]) else { return nil }
        self.init(width: width, height: height)
    }

    /// Parses a variant as the cache spells it (`40x40`, `40x40-contain.webp`): what index rows,
    /// manifests and folder names hold. Nil for any other text or a side over `maxSide`.
    public init?(variant text: String) {
        guard let name = ThumbnailVariantName(parsing: text),
              (1...Self.maxSide).contains(name.width), (1...Self.maxSide).contains(name.height) else { return nil }
        self.init(width: name.width, height: name.height, fit: name.fit, format: name.format, quality: name.quality)
    }

    /// The same box made another way: the sizes of one run share their fit and format.
    public func made(fit: ThumbnailFit, format: ThumbnailFormat, quality: Int?) -> ThumbnailSize {
        ThumbnailSize(width: width, height: height, fit: fit, format: format, quality: quality)
    }

    /// The quality the encoder uses: the one asked for, else the format's default (nil for PNG).
    public var effectiveQuality: Int? { quality ?? format.defaultQuality }

    public var description: String {
        ThumbnailVariantName(width: width, height: height, fit: fit, format: format, quality: quality).description
    }

    private static func side(_ text: Substring) -> Int? {
        // Int(_:) alone would accept "+40"; sizes are plain digit strings.
        guard !text.isEmpty, text.allSatisfy({ ("0"..."9").contains($0) }),
              let value = Int(text), (1...maxSide).contains(value) else { return nil }
        return value
    }
}
