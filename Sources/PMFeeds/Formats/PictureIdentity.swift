/// Which image URLs name one picture at different sizes. Image servers put the size in the URL,
/// so a feed's thumbnail and its post's `<img>` are often one picture under two addresses; an
/// item lists each picture once (`ItemMedia`). Only the size is taken out, never the picture's
/// own name: two URLs are one picture when nothing else differs.
enum PictureIdentity {
    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// Query parameters that size or re-encode an image (WordPress.com and Jetpack's `w`, `h`,
    /// `resize`, `fit`, `crop`, `zoom`, `quality`; other image CDNs' `width`, `height`), in ASCII.
    private static let sizeParameters: [[UInt8]] = ["w", "h", "width", "height", "resize", "fit", "crop", "zoom", "quality"]
        .map { Array($0.utf8) }

    /// `url` without what only says its size: the scheme (http and https serve one picture), the
    /// host's case, the fragment, the `sizeParameters`, a path segment or `=` suffix of the last
    /// one that is all size options (Blogger's and Google's `s72-c`, `s1600`, `w640-h426-p-k-no-nu`,
    /// `=s72-c`), and a `-WIDTHxHEIGHT` before the file extension (WordPress's `photo-150x150.jpg`).
    /// What is no absolute URL is its own key. Every image URL of every item goes through here,
    /// so it is one pass over the bytes into one buffer.
    static func key(_ url: String) -> String {
        var url = url
        return url.withUTF8 { bytes in
            guard let authorityStart = authorityStart(bytes) else { return String(decoding: bytes, as: UTF8.self) }
            let end = bytes[authorityStart...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
            let queryStart = bytes[authorityStart..<end].firstIndex(of: UInt8(ascii: "?")) ?? end
            let pathStart = bytes[authorityStart..<queryStart].firstIndex(of: UInt8(ascii: "/")) ?? queryStart
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - authorityStart + 1) { buffer in
                var key = KeyBuffer(bytes: buffer)
                for byte in bytes[authorityStart..<pathStart] { key.append(lowercased(byte)) }
                appendPath(bytes[pathStart..<queryStart], to: &key)
                if queryStart < end { appendQuery(bytes[(queryStart + 1)..<end], to: &key) }
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<key.count]), as: UTF8.self)
            }
        }
    }

    /// A hash of `url`'s host (case aside): URLs can only have one key when they have one host,
    /// and this costs no allocation, where `key` costs one.
    static func hostHash(_ url: String) -> Int {
        var url = url
        return url.withUTF8 { bytes in
            var hasher = Hasher()
            if let start = authorityStart(bytes) {
                for byte in host(bytes, from: start) { hasher.combine(lowercased(byte)) }
            }
            return hasher.finalize()
        }
    }

    private static func host(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bytes {
        bytes[start..<(bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                        ?? bytes.endIndex)]
    }

    /// Where the host starts, after `scheme://`; nil for what is no absolute URL.
    private static func authorityStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let colon = bytes.prefix(12).firstIndex(of: UInt8(ascii: ":")), colon > 0,
              colon + 2 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        return colon + 3
    }

    /// Each `/segment` but those of size options; the last one through `appendFileName`.
    private static func appendPath(_ path: Bytes, to key: inout KeyBuffer) {
        var start = path.startIndex
        while start < path.endIndex {
            // `start` is at a `/`.
            let segmentStart = start + 1
            let segmentEnd = path[segmentStart...].firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
            let segment = path[segmentStart..<segmentEnd]
            if segmentEnd == path.endIndex {
                appendFileName(segment, to: &key)
            } else if !isSizeOptions(segment) {
                key.append(UInt8(ascii: "/"))
                key.append(segment)
            }
            start = segmentEnd
        }
    }

    /// The last segment without a `=size` suffix and without a `-WIDTHxHEIGHT` before its extension.
    private static func appendFileName(_ segment: Bytes, to key: inout KeyBuffer) {
        var name = segment
        if let equals = name.lastIndex(of: UInt8(ascii: "=")), isSizeOptions(name[(equals + 1)...]) { name = name[..<equals] }
        if isSizeOptions(name) { return }
        key.append(UInt8(ascii: "/"))
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), let dash = name[..<dot].lastIndex(of: UInt8(ascii: "-")),
           isDimensions(name[(dash + 1)..<dot]) {
            key.append(name[..<dash])
            key.append(name[dot...])
        } else {
            key.append(name)
        }
    }

    private static func appendQuery(_ query: Bytes, to key: inout KeyBuffer) {
        var first = true
        var start = query.startIndex
        while start < query.endIndex {
            let end = query[start...].firstIndex(of: UInt8(ascii: "&")) ?? query.endIndex
            let parameter = query[start..<end]
            let name = parameter[..<(parameter.firstIndex(of: UInt8(ascii: "=")) ?? parameter.endIndex)]
            if !parameter.isEmpty, !sizeParameters.contains(where: { isCaseInsensitive(name, equalTo: $0) }) {
                key.append(first ? UInt8(ascii: "?") : UInt8(ascii: "&"))
                key.append(parameter)
                first = false
            }
            start = end + 1
        }
    }

    /// `s72`, `s72-c`, `w640-h426`, `s1600-rw`, `w400-h300-p-k-no-nu`: a size (`s`, `w` or `h`
    /// and digits) and then options (a few letters, maybe digits), joined by `-`.
    private static func isSizeOptions(_ text: Bytes) -> Bool {
        guard let letter = text.first, letter == UInt8(ascii: "s") || letter == UInt8(ascii: "w") || letter == UInt8(ascii: "h")
        else { return false }
        var index = text.index(after: text.startIndex)
        let digits = index
        while index < text.endIndex, isDigit(text[index]) { index += 1 }
        guard index > digits else { return false }
        while index < text.endIndex {
            guard text[index] == UInt8(ascii: "-") else { return false }
            index += 1
            let letters = index
            while index < text.endIndex, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(text[index]) { index += 1 }
            guard (1...3).contains(index - letters) else { return false }
            while index < text.endIndex, isDigit(text[index]) { index += 1 }
        }
        return true
    }

    /// `150x150`.
    private static func isDimensions(_ text: Bytes) -> Bool {
        guard let x = text.firstIndex(of: UInt8(ascii: "x")) else { return false }
        let (width, height) = (text[..<x], text[(x + 1)...])
        return !width.isEmpty && !height.isEmpty && width.allSatisfy(isDigit) && height.allSatisfy(isDigit)
    }

    private static func isCaseInsensitive(_ text: Bytes, equalTo lowercase: [UInt8]) -> Bool {
        text.count == lowercase.count && zip(text, lowercase).allSatisfy { lowercased($0) == $1 }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { byte | (0x41...0x5A ~= byte ? 0x20 : 0) }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}

/// The bytes of a key as they are written: never more than the URL's, which sizes the buffer.
private struct KeyBuffer {
    let bytes: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(bytes: UnsafeMutableBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func append(_ byte: UInt8) {
        // A key is never longer than its URL; the check keeps a mistake in that from writing past the buffer.
        guard count < bytes.count else { return }
        bytes[count] = byte
        count += 1
    }

    mutating func append(_ slice: Slice<UnsafeBufferPointer<UInt8>>) {
        for byte in slice { append(byte) }
    }
}
