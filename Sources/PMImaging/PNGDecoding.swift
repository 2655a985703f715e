import CodecShim

extension ImageFormat {
    public static let png = ImageFormat(
        name: "png", fileExtension: "png", mimeType: "image/png",
        matches: { $0.starts(withMagic: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) },
        decoder: { bytes, _, limits throws(ImageError) in try PNGDecoding.decode(bytes, limits: limits) })
}

enum PNGDecoding {
    /// Decodes the whole image (PNG has no shrink-on-load) after checking IHDR against `limits`.
    static func decode(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(ImageError) -> DecodedImage {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("PNG: empty input")
        }
        let message = CodecMessage()
        var header = pm_png_header()
        // libpng refuses a side over this while reading IHDR; the area check below is the real limit.
        let maxSide = Int32(clamping: limits.maxPixels)
        guard let png = pm_png_open(base, bytes.count, maxSide, &header, message.pointer) else {
            throw message.error("PNG")
        }
        defer { pm_png_close(png) }
        try limits.check(width: Int(header.width), height: Int(header.height))

        var image = pm_image()
        guard pm_png_decode(png, Int64(limits.maxPixels), &image, message.pointer) == 0 else {
            throw message.error("PNG")
        }
        let orientation = ExifOrientation.read(
            exif: header.exif.map { UnsafeRawBufferPointer(start: $0, count: header.exif_length) },
            xmp: header.xmp.map { UnsafeRawBufferPointer(start: $0, count: header.xmp_length) })
        return DecodedImage(taking: image, orientation: orientation)
    }
}
