import Foundation
import PMImaging

/// An image's placeholder as the gallery paints it: its ThumbHash (`originals.placeholder`,
/// base64) drawn as a tiny PNG inlined as a data URL, which the browser scales up smoothly
/// behind the `<img>` until the thumbnail covers it. Inline, so it shows from `file://` and
/// without JavaScript, with no request of its own.
enum PlaceholderImage {
    /// The PNG's longer side. The hash holds at most 7 cosine terms a side, which 8 pixels carry
    /// well enough for a blur the browser smooths further; every pixel more costs page weight
    /// (200 photos: 100 to 275 bytes a PNG, 270 bytes of base64 on average, a feed page of 200
    /// items 187 KB without placeholders and 257 KB with them).
    static let side = 8

    /// `data:image/png;base64,…`, or nil when the text is not a hash.
    static func dataURL(thumbHash base64: String) -> String? {
        guard let hash = Data(base64Encoded: base64), let png = ThumbHash.png(Array(hash), longestSide: side) else { return nil }
        return "data:image/png;base64," + Data(png).base64EncodedString()
    }
}
