import CodecShim

extension ImageFormat {
    public static let jpeg = ImageFormat(
        name: "jpeg", fileExtension: "jpg", mimeType: "image/jpeg", otherExtensions: ["jpeg"],
        // SOI followed by the first marker's 0xFF prefix.
        matches: { $0.starts(withMagic: [0xFF, 0xD8, 0xFF]) },
        decoder: { bytes, sizes, limits throws(ImageError) in try JPEGDecoding.decode(bytes, covering: sizes, limits: limits) },
        probe: { bytes, limits throws(ImageError) in try JPEGDecoding.declaredSize(bytes, limits: limits) })
}

enum JPEGDecoding {
    /// The SOF marker's size, upright by the EXIF (else XMP) orientation: markers read up to the
    /// first scan, nothing decoded.
    static func declaredSize(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(ImageError) -> DeclaredSize {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("JPEG: empty input")
        }
        let message = CodecMessage()
        var header = pm_jpeg_header()
        guard let jpeg = pm_jpeg_open(base, bytes.count, max(1, limits.maxDecoderMemory), &header, message.pointer) else {
            throw message.error("JPEG")
        }
        defer { pm_jpeg_close(jpeg) }
        let orientation = ExifOrientation.read(
            exif: header.exif.map { UnsafeRawBufferPointer(start: $0, count: header.exif_length) },
            xmp: header.xmp.map { UnsafeRawBufferPointer(start: $0, count: header.xmp_length) })
        return DeclaredSize(storedWidth: Int(header.width), storedHeight: Int(header.height), orientation: orientation)
    }

    /// Decodes at the smallest DCT scale that still covers every requested size (after EXIF
    /// orientation), after checking the declared dimensions against `limits`.
    static func decode(_ bytes: UnsafeRawBufferPointer, covering sizes: [ThumbnailSize],
                       limits: DecodeLimits) throws(ImageError) -> DecodedImage {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("JPEG: empty input")
        }
        let message = CodecMessage()
        var header = pm_jpeg_header()
        // libjpeg reads 0 as "unlimited"; a caller asking for no memory means the opposite.
        let memoryCap = max(1, limits.maxDecoderMemory)
        guard let jpeg = pm_jpeg_open(base, bytes.count, memoryCap, &header, message.pointer) else {
            throw message.error("JPEG")
        }
        defer { pm_jpeg_close(jpeg) }
        try limits.check(width: Int(header.width), height: Int(header.height))

        let orientation = ExifOrientation.read(
            exif: header.exif.map { UnsafeRawBufferPointer(start: $0, count: header.exif_length) },
            xmp: header.xmp.map { UnsafeRawBufferPointer(start: $0, count: header.xmp_length) })
        // The decoder works in stored orientation, where a rotated target has its sides exchanged.
        let storedTargets = ThumbnailGeometry.decodeTargets(
            sizes, orientation: orientation, imageWidth: Int(header.width), imageHeight: Int(header.height))
        let eighths = ThumbnailGeometry.jpegScaleEighths(
            width: Int(header.width), height: Int(header.height), targets: storedTargets)

        var image = pm_image()
        let wholeImageBytes = header.progressive != 0 ? LargeDecodeGate.coefficientBytes(
            width: Int(header.width), height: Int(header.height), components: Int(header.components)) : 0
        let status = LargeDecodeGate.run(holding: wholeImageBytes) {
            pm_jpeg_decode(jpeg, Int32(eighths), Int64(limits.maxPixels), &image, message.pointer)
        }
        guard status == 0 else { throw message.error("JPEG") }
        return DecodedImage(taking: image, orientation: orientation)
    }
}
