/// The file format a thumbnail is written in. PNG is the default and the only lossless one; the
/// others take a quality (`defaultQuality` when none is asked for).
public enum ThumbnailFormat: String, Sendable, Hashable, CaseIterable {
    case png, webp, avif, jpeg

    /// The extension of a thumbnail file of this format, which its variant's folder repeats
    /// (`thumbs/40x40.webp/ab/<sha256>.webp`), PNG's excepted.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .webp: "webp"
        case .avif: "avif"
        case .jpeg: "jpg"
        }
    }

    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .jpeg: "image/jpeg"
        }
    }

    /// Whether the format keeps an alpha channel: `contain`'s padding is transparent there,
    /// and white in JPEG, which flattens any transparency onto white too.
    public var hasAlpha: Bool { self != .jpeg }

    /// Whether `--quality` means anything for it.
    public var isLossy: Bool { self != .png }

    /// The quality a lossy format is written at when none is given: the defaults of `cwebp`
    /// (75), libheif's AV1 encoder (50) and `cjpeg` (75), so their outputs compare at equal terms.
    public var defaultQuality: Int? {
        switch self {
        case .png: nil
        case .webp: 75
        case .avif: 50
        case .jpeg: 75
        }
    }

    /// Every name `init?(named:)` takes, as the flag and the config key list them.
    public static let names = ["png", "webp", "avif", "jpeg", "jpg"]

    /// The format whose name or file extension is `text` (`jpeg` and `jpg` both), in any case.
    public init?(named text: String) {
        let lower = text.lowercased()
        guard let format = Self.allCases.first(where: { $0.rawValue == lower || $0.fileExtension == lower }) else {
            return nil
        }
        self = format
    }
}

/// How a thumbnail fills its box: `cover` crops the image's centre to the box's aspect, `contain`
/// shows the whole image, letterboxed (transparent padding, or white where the format has no alpha).
public enum ThumbnailFit: String, Sendable, Hashable, CaseIterable {
    case cover, contain
}
