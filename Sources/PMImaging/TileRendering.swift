import CodecShim

enum TileRendering {
    /// One upright thumbnail of exactly `size`: centre-crop the decoded image to the target's
    /// aspect, area-average it in stored orientation, then rotate/mirror the small result.
    static func render(_ image: borrowing DecodedImage, size: ThumbnailSize) throws(ImageError) -> PixelTile {
        let swaps = image.orientation.swapsAxes
        let width = swaps ? size.height : size.width
        let height = swaps ? size.width : size.height
        let crop = ThumbnailGeometry.centreCrop(
            width: image.width, height: image.height, targetWidth: width, targetHeight: height)
        let channels = image.channels
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        var raw = image.raw
        let status = pixels.withUnsafeMutableBufferPointer { out in
            pm_resample_box(&raw, crop.x, crop.y, crop.width, crop.height, out.baseAddress, Int32(width), Int32(height))
        }
        guard status == 0 else { throw ImageError("out of memory while scaling to \(size)") }
        let tile = PixelTile(pixels: pixels, width: width, height: height, channels: channels)
        return image.orientation.apply(to: tile)
    }
}
