import Foundation

/// The images of an RSS item or Atom entry, wherever real feeds put them.
///
/// Order (the first is the one the gallery shows):
/// 1. the full-size files: image `media:content` (each direct one, and the largest of each
///    `media:group`, in document order), image enclosures, item-level `itunes:image`, then
///    `googleplay:image`;
/// 2. when there is none of these, the item's cover, its `media:thumbnail` (the largest, see
///    `MediaSelection.thumbnail`); when one of the HTML's images is the same picture at another
///    size (`PictureIdentity`: Blogger's `s72-c` of a post's `s1600` photo), that larger copy
///    stands in its place. With full-size files the thumbnail is a smaller copy of one of them;
/// 3. the `<img>`s of the item's HTML in document order.
/// Each picture appears once (`ItemMedia`).
enum XMLItemMedia {
    /// `enclosures` are the format's enclosure elements (RSS `<enclosure url>`, Atom
    /// `<link rel="enclosure" href>`) with the attribute naming the file; `html` the elements
    /// holding the item's HTML, in order; `link` the item's absolute link.
    static func media(of item: XMLTreeElement, enclosures: [XMLTreeElement], urlAttribute: String,
                      html: [XMLTreeElement], link: String?) -> [FeedMedia] {
        var media = ItemMedia()
        media.add(MediaSelection.contentImages(in: item), .mediaContent)
        for enclosure in enclosures where isImageEnclosure(enclosure, urlAttribute: urlAttribute) {
            media.add(enclosure.attributes[urlAttribute].map(enclosure.resolve), .enclosure)
        }
        media.add(imageReference(item.child(XMLNamespace.itunes, "image")), .itunesImage)
        media.add(imageReference(item.child(XMLNamespace.googleplay, "image")), .googleplayImage)
        let htmlImages = images(in: html, link: link)
        if media.media.isEmpty, let thumbnail = MediaSelection.thumbnail(in: item) {
            let cover = PictureIdentity.key(thumbnail)
            if let larger = htmlImages.first(where: { ItemMedia.isFetchable($0) && PictureIdentity.key($0) == cover }) {
                media.add(larger, .html)
            } else {
                media.add(thumbnail, .mediaThumbnail)
            }
        }
        media.add(htmlImages, .html)
        return media.media
    }

    /// The `<img>` URLs of `html`, resolved: an explicit xml:base speaks for the HTML it holds;
    /// without one, the HTML was written for the item's page, and only then for the feed's own address.
    private static func images(in html: [XMLTreeElement], link: String?) -> [String] {
        let linkURL = link.flatMap { URL(string: $0) }
        return html.flatMap { element in
            let base = element.hasExplicitBase ? element.base : linkURL ?? element.base
            return ItemMedia.resolved(HTMLContent.imageReferences(in: element), against: base)
        }
    }

    /// An `image/*` type, or no type and a file name with an image extension.
    static func isImageEnclosure(_ enclosure: XMLTreeElement, urlAttribute: String) -> Bool {
        guard let url = FeedText.nonBlank(enclosure.attributes[urlAttribute]) else { return false }
        guard let type = FeedText.nonBlank(enclosure.attributes["type"]) else { return MediaSelection.hasImageExtension(url) }
        return MediaSelection.isImageType(type)
    }

    /// `itunes:image`/`googleplay:image`: the `href` attribute, else the `url` attribute or an
    /// absolute URL as text, which some feeds write instead (any other text is a caption, not a link).
    static func imageReference(_ element: XMLTreeElement?) -> String? {
        guard let element else { return nil }
        if let reference = FeedText.nonBlank(element.attributes["href"]) ?? FeedText.nonBlank(element.attributes["url"]) {
            return element.resolve(reference)
        }
        guard let text = FeedText.nonBlank(element.text), ItemMedia.isFetchable(text) else { return nil }
        return text
    }
}
