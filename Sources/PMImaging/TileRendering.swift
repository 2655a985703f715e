import CodecShim

enum TileRendering {
    /// The upright thumbnails of a whole decoded image, one per size, and its placeholder's
    /// pixels: converted to sRGB once, then each thumbnail centre-cropped and area-averaged, the
    /// placeholder's the whole image fitted (`ThumbnailGeometry.placeholderTarget`).
    static func tiles(_ image: DecodedImage, sizes: [ThumbnailSize]) throws(ImageError) -> Tiles {
        ColorManagement.convertToSRGB(image)
        var tiles: [PixelTile] = []
        tiles.reserveCapacity(sizes.count)
        for size in sizes {
            let target = ThumbnailGeometry.storedTarget(
                size, orientation: image.orientation, imageWidth: image.width, imageHeight: image.height)
            tiles.append(try render(image, target: target))
        }
        let placeholder = try render(image, target: ThumbnailGeometry.placeholderTarget(
            imageWidth: image.width, imageHeight: image.height))
        return Tiles(tiles: tiles, warning: image.warning, placeholder: placeholder)
    }

    /// One upright tile of `target`: the decoded image's crop area-averaged in stored
    /// orientation, then the small result rotated/mirrored.
    private static func render(_ image: borrowing DecodedImage, target: StoredTarget) throws(ImageError) -> PixelTile {
        let crop = target.crop
        let channels = image.channels
        var pixels = [UInt8](repeating: 0, count: target.width * target.height * channels)
        var raw = image.raw
        let status = pixels.withUnsafeMutableBufferPointer { out in
            pm_resample_box(&raw, crop.x, crop.y, crop.width, crop.height, out.baseAddress,
                            Int32(target.width), Int32(target.height))
        }
        guard status == 0 else { throw ImageError("out of memory while scaling to \(target.width)x\(target.height)") }
        let tile = PixelTile(pixels: pixels, width: target.width, height: target.height, channels: channels)
        return image.orientation.apply(to: tile)
    }
}
