extension ThumbHash {
    /// The placeholder a hash describes as PNG bytes, `longestSide` pixels on its longer side
    /// (RGB when opaque): small enough to inline in a page as a data URL, for the browser to
    /// scale up smoothly. Nil for bytes that are not a hash.
    public static func png(_ hash: [UInt8], longestSide: Int) -> [UInt8]? {
        guard let image = render(hash, longestSide: longestSide) else { return nil }
        let tile = PixelTile(pixels: image.rgba, width: image.width, height: image.height, channels: 4)
        return try? PNGEncoding.encode(tile.droppingOpaqueAlpha())
    }
}
