import CodecShim

extension ImageFormat {
    public static let gif = ImageFormat(
        name: "gif", fileExtension: "gif", mimeType: "image/gif",
        matches: { $0.starts(withMagic: Array("GIF87a".utf8)) || $0.starts(withMagic: Array("GIF89a".utf8)) },
        decoder: { bytes, _, limits throws(ImageError) in try GIFDecoding.decode(bytes, limits: limits) },
        probe: { bytes, _ throws(ImageError) in try GIFDecoding.declaredSize(bytes) })
}

enum GIFDecoding {
    /// The logical screen's size (GIF has no orientation): the screen descriptor read, no frame.
    static func declaredSize(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> DeclaredSize {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("GIF: empty input")
        }
        let message = CodecMessage()
        var header = pm_gif_header()
        guard let gif = pm_gif_open(base, bytes.count, &header, message.pointer) else {
            throw message.error("GIF")
        }
        pm_gif_close(gif)
        return DeclaredSize(width: Int(header.width), height: Int(header.height))
    }

    /// Decodes the first frame on its logical screen (GIF has no shrink-on-load) after checking the
    /// screen against `limits`; the shim checks the canvas again once the frame's extent is known.
    static func decode(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(ImageError) -> DecodedImage {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("GIF: empty input")
        }
        let message = CodecMessage()
        var header = pm_gif_header()
        guard let gif = pm_gif_open(base, bytes.count, &header, message.pointer) else {
            throw message.error("GIF")
        }
        defer { pm_gif_close(gif) }
        try limits.check(width: Int(header.width), height: Int(header.height))

        var image = pm_image()
        guard pm_gif_decode(gif, Int64(limits.maxPixels), &image, message.pointer) == 0 else {
            throw message.error("GIF")
        }
        return DecodedImage(taking: image, orientation: .identity)
    }
}
