import CodecShim

extension ImageFormat {
    public static let png = ImageFormat(
        name: "png", fileExtension: "png", mimeType: "image/png",
        matches: { $0.starts(withMagic: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) },
        decoder: { bytes, _, limits throws(ImageError) in try PNGDecoding.decode(bytes, limits: limits) },
        probe: { bytes, limits throws(ImageError) in try PNGDecoding.declaredSize(bytes, limits: limits) },
        tiles: { bytes, sizes, limits throws(ImageError) in try PNGDecoding.tiles(bytes, sizes: sizes, limits: limits) })
}

enum PNGDecoding {
    /// IHDR's size, upright by the eXIf (else XMP) orientation: chunks read up to the first IDAT,
    /// nothing decoded.
    static func declaredSize(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(ImageError) -> DeclaredSize {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("PNG: empty input")
        }
        let message = CodecMessage()
        var header = pm_png_header()
        guard let png = pm_png_open(base, bytes.count, Int32(clamping: limits.maxPixels), &header, message.pointer) else {
            throw message.error("PNG")
        }
        defer { pm_png_close(png) }
        let orientation = ExifOrientation.read(
            exif: header.exif.map { UnsafeRawBufferPointer(start: $0, count: header.exif_length) },
            xmp: header.xmp.map { UnsafeRawBufferPointer(start: $0, count: header.xmp_length) })
        return DeclaredSize(storedWidth: Int(header.width), storedHeight: Int(header.height), orientation: orientation)
    }

    /// Decodes the whole image (PNG has no shrink-on-load) after checking IHDR against `limits`.
    static func decode(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(ImageError) -> DecodedImage {
        let opened = try Opened(bytes, limits: limits)
        return try opened.decodeWhole(limits: limits)
    }

    /// The thumbnails, each row scaled into every size as it is decoded, so the whole image is
    /// never in memory (`scaling: false`, or a PNG that cannot be scaled so, decodes it whole
    /// within `LargeDecodeGate`'s budget instead). Both ways give the same bytes. A file that
    /// breaks after some rows is decoded again whole, which keeps those rows with alpha.
    static func tiles(_ bytes: UnsafeRawBufferPointer, sizes: [ThumbnailSize], limits: DecodeLimits,
                      scaling: Bool = true) throws(ImageError) -> Tiles {
        let opened = try Opened(bytes, limits: limits)
        let header = opened.header
        if scaling, header.scalable != 0, let tiles = try opened.decodeScaled(sizes: sizes, limits: limits) {
            return tiles
        }
        let whole = scaling && header.scalable != 0 ? try Opened(bytes, limits: limits) : opened
        let wholeImageBytes = Int(header.width) * Int(header.height) * Int(header.channels)
        return try LargeDecodeGate.run(holding: wholeImageBytes) { () throws(ImageError) in
            try TileRendering.tiles(try whole.decodeWhole(limits: limits), sizes: sizes)
        }
    }

    /// A PNG read up to its first IDAT, its size checked against the limits.
    private final class Opened {
        let png: OpaquePointer
        let header: pm_png_header
        let orientation: ExifOrientation
        let message = CodecMessage()

        init(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(ImageError) {
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                throw ImageError("PNG: empty input")
            }
            var header = pm_png_header()
            // libpng refuses a side over this while reading IHDR; the area check below is the real limit.
            let maxSide = Int32(clamping: limits.maxPixels)
            guard let png = pm_png_open(base, bytes.count, maxSide, &header, message.pointer) else {
                throw message.error("PNG")
            }
            self.png = png
            self.header = header
            orientation = ExifOrientation.read(
                exif: header.exif.map { UnsafeRawBufferPointer(start: $0, count: header.exif_length) },
                xmp: header.xmp.map { UnsafeRawBufferPointer(start: $0, count: header.xmp_length) })
            try limits.check(width: Int(header.width), height: Int(header.height))
        }

        deinit { pm_png_close(png) }

        func decodeWhole(limits: DecodeLimits) throws(ImageError) -> DecodedImage {
            var image = pm_image()
            guard pm_png_decode(png, Int64(limits.maxPixels), &image, message.pointer) == 0 else {
                throw message.error("PNG")
            }
            return DecodedImage(taking: image, orientation: orientation)
        }

        /// Nil when the file breaks after some rows: only a whole decode keeps them.
        func decodeScaled(sizes: [ThumbnailSize], limits: DecodeLimits) throws(ImageError) -> Tiles? {
            // The sizes' targets, then the placeholder's: one pass of the rows fills them all.
            let targets = sizes.map { size in
                ThumbnailGeometry.storedTarget(size, orientation: orientation,
                                               imageWidth: Int(header.width), imageHeight: Int(header.height))
            } + [ThumbnailGeometry.placeholderTarget(imageWidth: Int(header.width), imageHeight: Int(header.height))]
            // Room for RGBA: whether the pixels have alpha is settled by the decoder.
            let buffers = targets.map { UnsafeMutablePointer<UInt8>.allocate(capacity: $0.width * $0.height * 4) }
            defer { for buffer in buffers { buffer.deallocate() } }
            var described = zip(targets, buffers).map { target, buffer in
                pm_png_target(crop_x: target.crop.x, crop_y: target.crop.y, crop_width: target.crop.width,
                              crop_height: target.crop.height, width: Int32(target.width),
                              height: Int32(target.height), pixels: buffer)
            }
            var channels: Int32 = 0
            let warning = CodecMessage()
            switch pm_png_decode_scaled(png, Int64(limits.maxPixels), &described, Int32(described.count),
                                        &channels, warning.pointer, message.pointer) {
            case 0: break
            case -2: return nil
            default: throw message.error("PNG")
            }
            var tiles = zip(targets, buffers).map { target, buffer in
                let count = target.width * target.height * Int(channels)
                let tile = PixelTile(pixels: Array(UnsafeBufferPointer(start: buffer, count: count)),
                                     width: target.width, height: target.height, channels: Int(channels))
                return orientation.apply(to: tile)
            }
            let placeholder = tiles.removeLast()
            return Tiles(tiles: tiles, warning: warning.text, placeholder: placeholder)
        }
    }
}
