import PMImaging

/// Which stored thumbnails an `<img>` offers: `src` plus a `srcset` of the same aspect at higher
/// densities (40x40 shown at 40 CSS pixels; 80x80 at 2x, 120x120 at 3x for retina screens).
struct ThumbnailSources: Equatable {
    var src: String
    /// `path 1x, path 2x, …`, or nil when there is only one candidate at 1x.
    var srcset: String?
    /// The image's placeholder (`PlaceholderImage.dataURL`), painted as the `<img>`'s background
    /// until the thumbnail covers it.
    var placeholder: String? = nil

    /// `stored` maps size specs ("80x80", "80x80.webp") to cache-relative paths; only those made
    /// as the base is (fit, format, quality) are candidates; `prefix` leads from the page
    /// to the cache root ("../../"). Nil when no stored size has the base's aspect.
    static func choose(base: ThumbnailSize, stored: [String: String], prefix: String) -> ThumbnailSources? {
        // The usual cache holds one size, the base: no parsing, no sorting.
        if stored.count == 1, let (spec, path) = stored.first, spec == base.description {
            return ThumbnailSources(src: prefix + HTML.relativeLink(path), srcset: nil)
        }
        let candidates = stored.compactMap { spec, path -> (density: Double, path: String)? in
            guard let size = ThumbnailSize(variant: spec), size.width * base.height == size.height * base.width,
                  size.fit == base.fit, size.format == base.format, size.quality == base.quality
            else { return nil }
            return (Double(size.width) / Double(base.width), prefix + HTML.relativeLink(path))
        }.sorted { $0.density < $1.density }
        guard !candidates.isEmpty else { return nil }
        let preferred = candidates.first { $0.density >= 1 } ?? candidates[candidates.count - 1]
        if candidates.count == 1 && preferred.density == 1 { return ThumbnailSources(src: preferred.path, srcset: nil) }
        let srcset = candidates.map { "\($0.path) \(format(density: $0.density))x" }.joined(separator: ", ")
        return ThumbnailSources(src: preferred.path, srcset: srcset)
    }

    /// `<img src="…" srcset="…" width="…" height="…" style="…" alt="…` with `alt` as text; the
    /// caller adds any further attributes and closes the tag. The placeholder is centred and
    /// cropped as the "fill" thumbnail is, over the checkerboard (`GalleryStyle`), so a
    /// transparent image, whose placeholder is as transparent, still shows it.
    func writeImageStart(width: Int, height: Int, alt: String, to html: inout HTMLBuffer) {
        html.markup("<img src=\"")
        html.markup(src)
        if let srcset {
            html.markup("\" srcset=\"")
            html.markup(srcset)
        }
        html.markup("\" width=\"")
        html.number(width)
        html.markup("\" height=\"")
        html.number(height)
        if let placeholder {
            html.markup("\" style=\"background:url(")
            html.markup(placeholder)
            html.markup(") 50%/cover no-repeat,var(--check)")
        }
        html.markup("\" alt=\"")
        html.text(alt)
    }

    private static func format(density: Double) -> String {
        if density == density.rounded() { return String(Int(density)) }
        return String((density * 1000).rounded() / 1000)
    }
}
