import Foundation

/// Reads Media RSS elements and file types for RSS items and Atom entries.
enum MediaSelection {
    private static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "avif", "heic", "bmp", "tif", "tiff"]

    /// The image `media:content` URLs in document order: each one directly in `element`, and the
    /// largest of each `media:group` (whose contents are renditions of one thing). Image means
    /// `medium="image"`, an `image/*` type, or, when neither attribute is given, a URL with an image
    /// file extension, so a video or audio entry is never taken for a photo.
    static func contentImages(in element: XMLTreeElement) -> [String] {
        element.children.compactMap { child in
            guard child.namespace == XMLNamespace.media else { return nil }
            switch child.name {
            case "content": return isImageContent(child) ? largest([child]) : nil
            case "group": return largest(child.children(XMLNamespace.media, "content").filter(isImageContent))
            default: return nil
            }
        }
    }

    /// The largest `media:thumbnail` (directly or inside `media:group`).
    static func largestThumbnail(in element: XMLTreeElement) -> String? {
        largest(mediaElements(named: "thumbnail", in: element))
    }

    /// True for a MIME type such as `image/jpeg` (parameters and case ignored).
    static func isImageType(_ type: String?) -> Bool {
        type?.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("image/") ?? false
    }

    static func hasImageExtension(_ url: String) -> Bool {
        guard let path = URL(string: url)?.path else { return false }
        return imageExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    private static func mediaElements(named name: String, in element: XMLTreeElement) -> [XMLTreeElement] {
        element.children(XMLNamespace.media, name)
            + element.children(XMLNamespace.media, "group").flatMap { $0.children(XMLNamespace.media, name) }
    }

    private static func isImageContent(_ content: XMLTreeElement) -> Bool {
        let medium = content.attributes["medium"]?.lowercased()
        let type = content.attributes["type"]
        if let medium { return medium == "image" }
        if type != nil { return isImageType(type) }
        return content.attributes["url"].map(hasImageExtension) ?? false
    }

    /// By pixel area (width alone if height is missing); the first wins ties and unknown sizes.
    private static func largest(_ candidates: [XMLTreeElement]) -> String? {
        var best: (url: String, area: Int)?
        for candidate in candidates {
            guard let raw = candidate.attributes["url"], let url = FeedText.nonBlank(raw) else { continue }
            let width = candidate.attributes["width"].flatMap { Int($0) } ?? 0
            let height = candidate.attributes["height"].flatMap { Int($0) } ?? width
            let area = width * height
            if area > (best?.area ?? -1) { best = (candidate.resolve(url), area) }
        }
        return best?.url
    }
}
