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
    static let maxPixels = Flag(
        name: "max-pixels", placeholder: "N", kind: .integer(1...1_000_000_000), summary: "largest decoded image, in pixels",
        help: "largest decoded image, in pixels (default \(defaults.maxPixels))")
}
