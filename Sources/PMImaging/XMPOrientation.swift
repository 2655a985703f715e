extension ExifOrientation {
    /// The EXIF orientation tag, or else XMP's `tiff:Orientation`, or else identity.
    static func read(exif: UnsafeRawBufferPointer?, xmp: UnsafeRawBufferPointer?) -> ExifOrientation {
        if let exif, let tag = tag(inExif: exif) { return tag }
        if let xmp, let tag = read(fromXMP: xmp) { return tag }
        return .identity
    }

    /// Reads `tiff:Orientation` from an XMP packet (JPEG APP1 `http://ns.adobe.com/xap/1.0/`, PNG
    /// iTXt `XML:com.adobe.xmp`), in either RDF form: the attribute `tiff:Orientation="6"` or the
    /// element `<tiff:Orientation>6</tiff:Orientation>`. Nil when absent or not 1...8. A scan for
    /// the property rather than an XML parse: the packet only ever has to yield this one number,
    /// and a malformed packet must not cost the thumbnail.
    static func read(fromXMP packet: UnsafeRawBufferPointer) -> ExifOrientation? {
        let name = Array("tiff:Orientation".utf8)
        var index = 0
        let bytes = packet
        while let found = firstIndex(of: name, in: bytes, from: index) {
            index = found + name.count
            // The property itself, not e.g. `tiff:OrientationX` or the closing tag.
            guard found > 0, bytes[found - 1] == UInt8(ascii: "<") || isSpace(bytes[found - 1]) else { continue }
            var at = index
            while at < bytes.count, isSpace(bytes[at]) { at += 1 }
            guard at < bytes.count else { return nil }
            if bytes[at] == UInt8(ascii: "=") {
                at += 1
                while at < bytes.count, isSpace(bytes[at]) { at += 1 }
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { continue }
                at += 1
            } else if bytes[at] == UInt8(ascii: ">") {
                at += 1
            } else {
                continue
            }
            while at < bytes.count, isSpace(bytes[at]) { at += 1 }
            guard at < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "8")).contains(bytes[at]) else { return nil }
            let digit = Int(bytes[at] - UInt8(ascii: "0"))
            let next = at + 1 < bytes.count ? bytes[at + 1] : 0
            guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) else { return nil }
            return ExifOrientation(rawValue: digit)
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func firstIndex(of needle: [UInt8], in haystack: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
