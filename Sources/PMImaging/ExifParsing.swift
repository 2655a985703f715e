extension ExifOrientation {
    private static let orientationTag = 0x0112

    /// Reads the orientation from an EXIF block: a JPEG APP1 payload that starts with "Exif\0\0",
    /// or the bare TIFF structure of a PNG `eXIf` chunk. Anything missing, malformed or out of
    /// range means "as stored": a bad tag must never fail the thumbnail.
    static func read(fromExif payload: UnsafeRawBufferPointer) -> ExifOrientation {
        tag(inExif: payload) ?? .identity
    }

    /// The orientation tag's value, or nil when the block has none (or an unreadable one), so
    /// that XMP's `tiff:Orientation` may stand in.
    static func tag(inExif payload: UnsafeRawBufferPointer) -> ExifOrientation? {
        let header: [UInt8] = Array("Exif\0\0".utf8)
        let body = payload.count > header.count && payload.prefix(header.count).elementsEqual(header)
            ? UnsafeRawBufferPointer(rebasing: payload[header.count...]) : payload
        guard let tiff = TIFFReader(body), let ifd = tiff.uint32(at: 4), let entries = tiff.uint16(at: ifd) else {
            return nil
        }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = tiff.uint16(at: entry) else { break }
            guard tag == orientationTag else { continue }
            // EXIF says SHORT, but writers also store LONG or SLONG (and Pillow and libvips read
            // them): the value is read as the integer type the entry declares. One value of up to
            // 4 bytes sits left-aligned in the 4-byte value field.
            guard let type = tiff.uint16(at: entry + 2), let width = integerWidth[type],
                  let value = tiff.uint(at: entry + 8, count: width) else {
                return nil
            }
            return ExifOrientation(rawValue: value)
        }
        return nil
    }

    /// Bytes of one value of each TIFF integer type: BYTE, SHORT, LONG and their signed SBYTE,
    /// SSHORT, SLONG. A negative signed value reads as a large one, which no orientation is.
    private static let integerWidth: [Int: Int] = [1: 1, 3: 2, 4: 4, 6: 1, 8: 2, 9: 4]
}

/// Bounds-checked integer reads from a TIFF structure in either byte order.
struct TIFFReader {
    private let bytes: UnsafeRawBufferPointer
    private let bigEndian: Bool

    /// Nil unless the bytes start with a TIFF header ("II*\0" or "MM\0*").
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x49, 0x49, 0x2A, 0x00): bigEndian = false
        case (0x4D, 0x4D, 0x00, 0x2A): bigEndian = true
        default: return nil
        }
        self.bytes = bytes
    }

    func uint16(at offset: Int) -> Int? { read(at: offset, count: 2) }
    func uint32(at offset: Int) -> Int? { read(at: offset, count: 4) }
    /// An unsigned integer of `count` bytes (1, 2 or 4).
    func uint(at offset: Int, count: Int) -> Int? { read(at: offset, count: count) }

    private func read(at offset: Int, count: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - count else { return nil }
        var value = 0
        for i in 0..<count {
            let byte = Int(bytes[offset + (bigEndian ? i : count - 1 - i)])
            value = value << 8 | byte
        }
        return value
    }
}
