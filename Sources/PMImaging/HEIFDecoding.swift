import CodecShim

extension ImageFormat {
    public static let avif = ImageFormat(
        name: "avif", fileExtension: "avif", mimeType: "image/avif",
        matches: { HEIFDecoding.brand(of: $0) == .avif },
        decoder: { bytes, _, limits throws(ImageError) in
            try HEIFDecoding.decode(bytes, prefix: "AVIF", codec: "AV1", limits: limits)
        },
        probe: { bytes, limits throws(ImageError) in
            try HEIFDecoding.declaredSize(bytes, prefix: "AVIF", codec: "AV1", limits: limits)
        })

    public static let heif = ImageFormat(
        name: "heic", fileExtension: "heic", mimeType: "image/heic", otherExtensions: ["heif"],
        matches: { HEIFDecoding.brand(of: $0) == .heif },
        decoder: { bytes, _, limits throws(ImageError) in
            try HEIFDecoding.decode(bytes, prefix: "HEIC", codec: "HEVC", limits: limits)
        },
        probe: { bytes, limits throws(ImageError) in
            try HEIFDecoding.declaredSize(bytes, prefix: "HEIC", codec: "HEVC", limits: limits)
        })
}

enum HEIFDecoding {
    enum Family { case avif, heif }

    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]
    /// Brands that name HEVC content; `mif1`/`msf1` only say "some HEIF".
    private static let hevcBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis"]

    /// Which of the two an ISO BMFF file is, from its leading `ftyp` box: the major brand, then
    /// the compatible brands, since a generic `mif1` file names its codec only there.
    static func brand(of bytes: UnsafeRawBufferPointer) -> Family? {
        guard bytes.count >= 16, fourCC(bytes, at: 4) == "ftyp" else { return nil }
        let major = fourCC(bytes, at: 8)
        let boxSize = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let end = min(bytes.count, max(16, boxSize))
        let compatible = Set(stride(from: 16, to: end - 3, by: 4).map { fourCC(bytes, at: $0) })
        if avifBrands.contains(major) { return .avif }
        if !hevcBrands.contains(major), !compatible.isDisjoint(with: avifBrands) { return .avif }
        if heifBrands.contains(major) || !compatible.isDisjoint(with: hevcBrands) { return .heif }
        return nil
    }

    private static func fourCC(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    /// The primary image as displayed (its ispe after clap and irot), and upright by the EXIF or
    /// XMP orientation when no transform property applies one (as `decode` orients it): boxes
    /// parsed through libheif's handle, nothing decoded.
    static func declaredSize(_ bytes: UnsafeRawBufferPointer, prefix: String, codec: String,
                             limits: DecodeLimits) throws(ImageError) -> DeclaredSize {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("\(prefix): empty input")
        }
        let message = CodecMessage()
        var header = pm_heif_header()
        guard let heif = pm_heif_open(base, bytes.count, Int64(limits.maxPixels), codec, &header, message.pointer) else {
            throw message.error(prefix)
        }
        defer { pm_heif_close(heif) }
        let orientation = header.has_transform != 0 ? .identity : ExifOrientation.read(
            exif: header.exif.map { UnsafeRawBufferPointer(start: $0, count: header.exif_length) },
            xmp: header.xmp.map { UnsafeRawBufferPointer(start: $0, count: header.xmp_length) })
        return DeclaredSize(storedWidth: Int(header.width), storedHeight: Int(header.height), orientation: orientation)
    }

    /// Decodes the primary image whole (libheif has no scaled decode), after checking its
    /// displayed, stored and grid-canvas sizes against `limits`. libheif applies the HEIF
    /// transforms (`clap`, `irot`, `imir`); an EXIF or XMP orientation beside them only restates
    /// them (HEIF's rule; Apple's HEICs write both), so it is not applied again. Without any
    /// transform property the metadata's orientation is the only one the file gives, and is
    /// returned for the thumbnailer to apply.
    static func decode(_ bytes: UnsafeRawBufferPointer, prefix: String, codec: String,
                       limits: DecodeLimits) throws(ImageError) -> DecodedImage {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError("\(prefix): empty input")
        }
        let message = CodecMessage()
        var header = pm_heif_header()
        guard let heif = pm_heif_open(base, bytes.count, Int64(limits.maxPixels), codec, &header, message.pointer) else {
            throw message.error(prefix)
        }
        defer { pm_heif_close(heif) }
        try limits.check(width: Int(header.width), height: Int(header.height))
        try limits.check(width: Int(header.stored_width), height: Int(header.stored_height))
        try limits.check(width: Int(header.canvas_width), height: Int(header.canvas_height))

        var image = pm_image()
        guard pm_heif_decode(heif, Int64(limits.maxPixels), &image, message.pointer) == 0 else {
            throw message.error(prefix)
        }
        let orientation = header.has_transform != 0 ? .identity : ExifOrientation.read(
            exif: header.exif.map { UnsafeRawBufferPointer(start: $0, count: header.exif_length) },
            xmp: header.xmp.map { UnsafeRawBufferPointer(start: $0, count: header.xmp_length) })
        return DecodedImage(taking: image, orientation: orientation)
    }
}
