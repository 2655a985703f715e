import PMSupport
import PhotoMirror

/// What thumbnails to make, and the decoder's bound.
extension Flag {
    private static let defaults = ImagingOptions()

    static let size = Flag(
        name: "size", placeholder: "WxH", kind: .thumbnailSize, repeatable: true, summary: "thumbnail size, repeatable",
        help: "thumbnail size, repeatable (default \(defaults.sizes[0]); the first is the gallery's)")
    static let scales = Flag(
        name: "scales", placeholder: "1,2,3", kind: .text, summary: "also make the first size at these multiples",
        help: "also make the first size at these multiples (80x80, 120x120 for high-density screens); the gallery "
            + "offers them through srcset")
    static let format = Flag(
        name: "format", placeholder: "FORMAT", kind: .choice(ThumbnailFormat.names), summary: "thumbnail file format",
        help: "thumbnail file format: png (default, lossless), webp, avif or jpeg (jpg). WebP, AVIF and PNG keep "
            + "transparency; JPEG shows it over white")
    static let quality = Flag(
        name: "quality", placeholder: "Q", kind: .integer(1...100), summary: "quality of a lossy format, 1-100",
        help: "quality of a lossy format, 1-100 (defaults: webp 75, avif 50, jpeg 75; png ignores it). A quality "
            + "other than the default makes its own files beside the default's")
    static let fit = Flag(
        name: "fit", placeholder: "FIT", kind: .choice(ThumbnailFit.allCases.map(\.rawValue)),
        summary: "cover (crop the centre) or contain (letterbox)",
        help: "how an image fills the size: cover (default) crops its centre to the size's aspect; contain shows "
            + "all of it, letterboxed with transparent padding (white for jpeg)")
    static let maxPixels = Flag(
        name: "max-pixels", placeholder: "N", kind: .integer(1...1_000_000_000), summary: "largest decoded image, in pixels",
        help: "largest decoded image, in pixels (default \(defaults.maxPixels))")
}
