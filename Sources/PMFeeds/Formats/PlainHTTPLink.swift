/// The photo id of an `http(s)://host/path` link made only of letters, digits and `-._~@/`: the
/// shape of every link Flickr sends. For these, splitting the path on `/` and dropping empty
/// segments gives exactly `URL.pathComponents` (less its leading "/"; `.` and `..` stay in both),
/// so no `URL` is parsed, which cost more than reading the rest of the item. Any other link
/// (escapes, queries, ports, user info, other schemes) is `.notPlain` and goes through `URL`.
enum PlainHTTPLink: Equatable {
    case notPlain
    /// The all-digit segment two after the first `photos` segment, if any.
    case plain(photoID: String?)

    init(_ link: String) {
        var link = link
        self = link.withUTF8(Self.parse)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainHTTPLink {
        let hostStart: Int
        if bytes.starts(with: "https://".utf8) {
            hostStart = 8
        } else if bytes.starts(with: "http://".utf8) {
            hostStart = 7
        } else {
            return .notPlain
        }
        guard let slash = bytes[hostStart...].firstIndex(of: UInt8(ascii: "/")), slash > hostStart,
              bytes[hostStart..<slash].allSatisfy(isHostByte), bytes[slash...].allSatisfy(isPathByte) else { return .notPlain }
        var segmentsAfterPhotos: Int?
        var cursor = slash
        while let segment = nextSegment(bytes, &cursor) {
            if let seen = segmentsAfterPhotos {
                guard seen == 1 else {
                    segmentsAfterPhotos = seen + 1
                    continue
                }
                let isNumber = segment.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                return .plain(photoID: isNumber ? String(decoding: segment, as: UTF8.self) : nil)
            } else if segment.elementsEqual("photos".utf8) {
                segmentsAfterPhotos = 0
            }
        }
        return .plain(photoID: nil)
    }

    /// The next non-empty run of bytes between slashes at or after `cursor`, which moves past it.
    private static func nextSegment(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int) -> Slice<UnsafeBufferPointer<UInt8>>? {
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: "/") { cursor += 1 }
        guard cursor < bytes.count else { return nil }
        let start = cursor
        while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "/") { cursor += 1 }
        return bytes[start..<cursor]
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"): true
        default: isAlphanumeric(byte)
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
