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
            case "content": return isImageContent(child) ? largest([child], reference: urlAttribute) : nil
            case "group": return largest(child.children(XMLNamespace.media, "content").filter(isImageContent), reference: urlAttribute)
            default: return nil
            }
        }
    }

    /// The largest of the item's `media:thumbnail`s: those directly in `element` or in its
    /// `media:group`s, and those inside a `media:content` (direct or grouped) that is no image
    /// `contentImages` takes. That is a video's (Vimeo, YouTube-like feeds put their poster frame
    /// there, often with no `url` on the content at all) or a picture's without an address of its
    /// own; the thumbnail of an image taken is a smaller copy of it.
    static func thumbnail(in element: XMLTreeElement) -> String? {
        var candidates: [XMLTreeElement] = []
        for parent in [element] + element.children(XMLNamespace.media, "group") {
            for child in parent.children where child.namespace == XMLNamespace.media {
                if child.name == "thumbnail" {
                    candidates.append(child)
                } else if child.name == "content", !(isImageContent(child) && urlAttribute(child) != nil) {
                    candidates += child.children(XMLNamespace.media, "thumbnail")
                }
            }
        }
        return largest(candidates, reference: thumbnailReference)
    }

    /// True for a MIME type such as `image/jpeg` (parameters and case ignored).
    static func isImageType(_ type: String?) -> Bool {
        type?.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("image/") ?? false
    }

    static func hasImageExtension(_ url: String) -> Bool {
        guard let path = URL(string: url)?.path else { return false }
        return imageExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    private static func isImageContent(_ content: XMLTreeElement) -> Bool {
        let medium = content.attributes["medium"]?.lowercased()
        let type = content.attributes["type"]
        if let medium { return medium == "image" }
        if type != nil { return isImageType(type) }
        return content.attributes["url"].map(hasImageExtension) ?? false
    }

    private static func urlAttribute(_ element: XMLTreeElement) -> String? {
        FeedText.nonBlank(element.attributes["url"])
    }

    /// `url=`, or else the URL as the element's text, as feedparser and most readers take it
    /// (`<media:thumbnail>https://…/cover.jpg</media:thumbnail>`).
    private static func thumbnailReference(_ element: XMLTreeElement) -> String? {
        urlAttribute(element) ?? FeedText.nonBlank(element.text)
    }

    /// By pixel area (width alone if height is missing); the first wins ties and unknown sizes.
    /// `reference` is where each candidate names its file.
    private static func largest(_ candidates: [XMLTreeElement], reference: (XMLTreeElement) -> String?) -> String? {
        var best: (url: String, area: Int)?
        for candidate in candidates {
            guard let url = reference(candidate) else { continue }
            let width = candidate.attributes["width"].flatMap { Int($0) } ?? 0
            let height = candidate.attributes["height"].flatMap { Int($0) } ?? width
            let area = width * height
            if area > (best?.area ?? -1) { best = (candidate.resolve(url), area) }
        }
        return best?.url
    }
}
