import CodecShim

enum TileRendering {
    /// The upright thumbnails of a whole decoded image, one per size: converted to sRGB once,
    /// then each centre-cropped and area-averaged.
    static func render(_ image: DecodedImage, sizes: [ThumbnailSize]) throws(ImageError) -> [PixelTile] {
        ColorManagement.convertToSRGB(image)
        var tiles: [PixelTile] = []
        tiles.reserveCapacity(sizes.count)
        for size in sizes { tiles.append(try render(image, size: size)) }
        return tiles
    }

    /// One upright thumbnail of exactly `size`: centre-crop the decoded image to the target's
    /// aspect, area-average it in stored orientation, then rotate/mirror the small result.
    static func render(_ image: borrowing DecodedImage, size: ThumbnailSize) throws(ImageError) -> PixelTile {
        let target = ThumbnailGeometry.storedTarget(
            size, orientation: image.orientation, imageWidth: image.width, imageHeight: image.height)
        let crop = target.crop
        let channels = image.channels
        var pixels = [UInt8](repeating: 0, count: target.width * target.height * channels)
        var raw = image.raw
        let status = pixels.withUnsafeMutableBufferPointer { out in
            pm_resample_box(&raw, crop.x, crop.y, crop.width, crop.height, out.baseAddress,
                            Int32(target.width), Int32(target.height))
        }
        guard status == 0 else { throw ImageError("out of memory while scaling to \(size)") }
        let tile = PixelTile(pixels: pixels, width: target.width, height: target.height, channels: channels)
        return image.orientation.apply(to: tile)
    }
}
