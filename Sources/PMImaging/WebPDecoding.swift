import CodecShim

extension ImageFormat {
    public static let webp = ImageFormat(
        name: "webp", fileExtension: "webp", mimeType: "image/webp",
        // "RIFF", the 4-byte RIFF size, then the form type "WEBP".
        matches: { $0.starts(withMagic: Array("RIFF".utf8)) && $0.count >= 12 && $0[8..<12].elementsEqual("WEBP".utf8) },
        decoder: { bytes, sizes, limits throws(ImageError) in try WebPDecoding.decode(bytes, covering: sizes, limits: limits) },
        probe: { bytes, _ throws(ImageError) in try WebPDecoding.declaredSize(bytes) })
}

enum WebPDecoding {
    /// The canvas, upright by the EXIF chunk's orientation: the chunks indexed and the first
    /// frame's bitstream header read (WebPGetFeatures), nothing decoded.
    static func declaredSize(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> DeclaredSize {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("WebP: empty input")
        }
        let message = CodecMessage()
        var header = pm_webp_header()
        guard let webp = pm_webp_open(base, bytes.count, &header, message.pointer) else {
            throw message.error("WebP")
        }
        defer { pm_webp_close(webp) }
        let orientation = header.exif.map { readOrientation(UnsafeRawBufferPointer(start: $0, count: header.exif_length)) }
        return DeclaredSize(storedWidth: Int(header.width), storedHeight: Int(header.height),
                            orientation: orientation ?? .identity)
    }

    /// Decodes the still image, or an animation's first frame as its canvas shows it, scaled by
    /// libwebp to the smallest size that covers every requested size (after EXIF orientation;
    /// a frame with alpha at full size, see webp_decode.h), after checking the canvas against
    /// `limits`. The ICCP and EXIF chunks stay on the image.
    static func decode(_ bytes: UnsafeRawBufferPointer, covering sizes: [ThumbnailSize],
                       limits: DecodeLimits) throws(ImageError) -> DecodedImage {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("WebP: empty input")
        }
        let message = CodecMessage()
        var header = pm_webp_header()
        guard let webp = pm_webp_open(base, bytes.count, &header, message.pointer) else {
            throw message.error("WebP")
        }
        defer { pm_webp_close(webp) }
        try limits.check(width: Int(header.width), height: Int(header.height))

        var orientation = ExifOrientation.identity
        if let exif = header.exif {
            orientation = readOrientation(UnsafeRawBufferPointer(start: exif, count: header.exif_length))
        }
        // The decoder works in stored orientation, where a rotated target has its sides exchanged.
        let storedTargets = ThumbnailGeometry.decodeTargets(
            sizes, orientation: orientation, imageWidth: Int(header.width), imageHeight: Int(header.height))
        let scaled = ThumbnailGeometry.coveringSize(
            width: Int(header.width), height: Int(header.height), targets: storedTargets)

        var image = pm_image()
        guard pm_webp_decode(webp, Int32(scaled.width), Int32(scaled.height), Int64(limits.maxPixels),
                             &image, message.pointer) == 0 else {
            throw message.error("WebP")
        }
        return DecodedImage(taking: image, orientation: orientation)
    }

    /// The WebP container specification has the EXIF chunk hold the TIFF structure itself
    /// ("II*\0…"); some writers (Pillow among them) put JPEG's "Exif\0\0" prefix before it.
    /// `ExifOrientation.read(fromExif:)` takes the prefixed form, so the bare one gets it added.
    static func readOrientation(_ chunk: UnsafeRawBufferPointer) -> ExifOrientation {
        let prefix = Array("Exif\0\0".utf8)
        if chunk.starts(withMagic: prefix) { return ExifOrientation.read(fromExif: chunk) }
        return (prefix + chunk).withUnsafeBytes { ExifOrientation.read(fromExif: $0) }
    }
}
