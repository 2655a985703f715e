/// A path relative to the cache root. A content file's own name — `originals/ab/<sha256>.jpg`
/// (or another image format's extension), `thumbs/<variant>/ab/<sha256>.<ext>` (`40x40` with
/// `.png`, `40x40-contain.webp` with `.webp`: `ThumbnailVariantName`) — is packed (hash, variant,
/// extension: no heap); any other path, an original of an extension not listed in
/// `ContentName.Extension` included, is kept as text, which works the same, only slower.
/// Packing is exact: only a path that packs back to the very
/// same text is packed, so two different paths never share a key.
public enum CachePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    case content(ContentName)
    case text(String)

    public init(_ text: String) {
        self = text.withUTF8Bytes { ContentName(path: $0) }.map(CachePath.content) ?? .text(text)
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        self = ContentName(path: bytes).map(CachePath.content) ?? .text(String(decoding: bytes, as: UTF8.self))
    }

    /// `CacheLayout.thumbnailPath` of an original's hash and a size (a variant's name), spelled on
    /// the stack and packed like any other path: what the index's thumbnail rows name without
    /// storing it.
    init(thumbnailOf sha256: UnsafeBufferPointer<UInt8>, size: UnsafeBufferPointer<UInt8>) {
        let folder = Array("\(CacheLayout.thumbnailsFolder)/".utf8)
        let png = Array(".png".utf8)
        // The variant's own `.<ext>` suffix, else `.png`: CacheLayout.thumbnailPath's rule.
        let dot = size.lastIndex(of: UInt8(ascii: "."))
        let suffix = dot.map { Array(size[$0...]) }.flatMap { $0.count > 1 ? $0 : nil } ?? png
        let fanOut = sha256.prefix(2)
        let count = folder.count + size.count + 1 + fanOut.count + 1 + sha256.count + suffix.count
        self = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            var index = 0
            func append(_ bytes: some Collection<UInt8>) {
                for byte in bytes { buffer[index] = byte; index += 1 }
            }
            append(folder); append(size); append(CollectionOfOne(UInt8(ascii: "/")))
            append(fanOut); append(CollectionOfOne(UInt8(ascii: "/"))); append(sha256); append(suffix)
            return CachePath(utf8: UnsafeBufferPointer(buffer))
        }
    }

    public var description: String {
        switch self {
        case .content(let name): name.path
        case .text(let text): text
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .content(let name): name.hash(into: &hasher)
        case .text(let text): hasher.combine(text)
        }
    }

    /// Whether the path is under `originals/` (`true`), `thumbs/` (`false`), or neither (nil).
    public var isOriginal: Bool? {
        switch self {
        case .content(let name): return name.thumbnailSize == nil
        case .text(let text):
            if text.utf8.starts(with: (CacheLayout.originalsFolder + "/").utf8) { return true }
            if text.utf8.starts(with: (CacheLayout.thumbnailsFolder + "/").utf8) { return false }
            return nil
        }
    }
}

import PMSupport

/// A content file's canonical path, packed.
public struct ContentName: Hashable, Sendable {
    var hash: PackedHash
    /// Width and height of a thumbnail (16 bits each); nil for an original.
    var thumbnailSize: (width: UInt16, height: UInt16)? {
        size == 0 ? nil : (UInt16(truncatingIfNeeded: size >> 16), UInt16(truncatingIfNeeded: size))
    }
    private var size: UInt32
    /// A thumbnail's fit, format and quality beside its size (`PackedVariant`); 0 for the
    /// default variant and for an original.
    private var variant: UInt16 = 0
    private var fileExtension: Extension

    /// The image's hash bits spread a table on their own; the kind of file is mixed in cheaply.
    public func hash(into hasher: inout Hasher) {
        hash.hash(into: &hasher)
        hasher.combine(size &+ UInt32(fileExtension.rawValue) &+ UInt32(variant) << 3)
    }

    /// The extensions of the formats photomirror reads (PMImaging's `ImageFormat.fileExtension`).
    enum Extension: UInt8, Sendable, CaseIterable {
        case jpg, png, gif, webp, avif, heic
        var text: String { Self.texts[Int(rawValue)] }
        var bytes: [UInt8] { Self.utf8[Int(rawValue)] }
        private static let texts = ["jpg", "png", "gif", "webp", "avif", "heic"]
        private static let utf8 = texts.map { Array($0.utf8) }
        static let longest = texts.map(\.utf8.count).max() ?? 0
    }

    private static let originalsPrefix = Array("\(CacheLayout.originalsFolder)/".utf8)
    private static let thumbnailsPrefix = Array("\(CacheLayout.thumbnailsFolder)/".utf8)

    /// Packs `originals/<h0h1>/<sha256>.<ext>` or `thumbs/<variant>/<h0h1>/<sha256>.<ext>`, a
    /// variant spelled as `ThumbnailVariantName` does (sizes 1–65535) with its files' extension,
    /// and `<h0h1>` the hash's first two digits; nil otherwise.
    init?(path bytes: UnsafeBufferPointer<UInt8>) {
        var rest = bytes[...]
        func take(_ prefix: [UInt8]) -> Bool {
            guard rest.starts(with: prefix) else { return false }
            rest = rest.dropFirst(prefix.count)
            return true
        }
        var size: UInt32 = 0
        var variant = PackedVariant.plain
        if take(Self.originalsPrefix) {
            size = 0
        } else if take(Self.thumbnailsPrefix) {
            let folder = rest
            if let width = Self.number(&rest, until: UInt8(ascii: "x")),
               let height = Self.number(&rest, until: UInt8(ascii: "/")) {
                size = UInt32(width) << 16 | UInt32(height)
            } else if let slash = folder.firstIndex(of: UInt8(ascii: "/")),
                      let name = ThumbnailVariantName(parsing: String(decoding: folder[..<slash], as: UTF8.self)) {
                // Any other variant: spelled out only when the folder is not a plain size.
                size = UInt32(name.width) << 16 | UInt32(name.height)
                variant = PackedVariant(name)
                rest = folder[(slash + 1)...]
            } else {
                return nil
            }
        } else {
            return nil
        }
        // <h0h1>/<64 hex>.<extension>
        guard rest.count > 3 + 64 + 1, rest.count <= 3 + 64 + 1 + Extension.longest, rest[rest.startIndex + 2] == UInt8(ascii: "/"),
              rest[rest.startIndex + 3 + 64] == UInt8(ascii: "."),
              let hash = PackedHash(hex: UnsafeBufferPointer(rebasing: rest.dropFirst(3).prefix(64))),
              rest.prefix(2).elementsEqual(rest.dropFirst(3).prefix(2)),
              let fileExtension = Extension.allCases.first(where: { rest.dropFirst(3 + 64 + 1).elementsEqual($0.bytes) }),
              size == 0 || fileExtension.text == variant.format.fileExtension
        else { return nil }
        (self.hash, self.size, self.variant, self.fileExtension) = (hash, size, variant.bits, fileExtension)
    }

    /// An original's name from its hash and `originalExtensionCode`; nil for a code no extension has.
    init?(original hash: PackedHash, extensionCode: UInt8) {
        guard let fileExtension = Extension(rawValue: extensionCode) else { return nil }
        (self.hash, self.size, self.fileExtension) = (hash, 0, fileExtension)
    }

    /// The packed name of the thumbnail of `size` (a variant's name) of any image, to be given
    /// its hash by `replacingHash`: a name parsed once for all of a prune's images. Packing
    /// reads a hash's digits only into `hash` (the fan-out folder is made from them), so the
    /// name made for a hash of zeros differs from another hash's in `hash` alone. Nil when such
    /// paths stay text.
    static func thumbnailTemplate(size: String) -> ContentName? {
        let zeros = [UInt8](repeating: UInt8(ascii: "0"), count: 64)
        var size = size
        let path = size.withUTF8 { size in zeros.withUnsafeBufferPointer { CachePath(thumbnailOf: $0, size: size) } }
        guard case .content(let name) = path else { return nil }
        return name
    }

    /// This name for another image: `thumbnailTemplate`'s other half.
    func replacingHash(_ hash: PackedHash) -> ContentName {
        var name = self
        name.hash = hash
        return name
    }

    /// An original's extension as one byte (`init(original:extensionCode:)`); nil for a thumbnail.
    var originalExtensionCode: UInt8? { size == 0 ? fileExtension.rawValue : nil }

    /// A decimal number without leading zeros in 1...65535, then `end`.
    private static func number(_ rest: inout Slice<UnsafeBufferPointer<UInt8>>, until end: UInt8) -> UInt16? {
        guard let stop = rest.firstIndex(of: end), stop > rest.startIndex, stop - rest.startIndex <= 5,
              rest[rest.startIndex] != UInt8(ascii: "0") else { return nil }
        var value = 0
        for byte in rest[..<stop] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard value <= 65535 else { return nil }
        rest = rest[(stop + 1)...]
        return UInt16(value)
    }

    var path: String { folder + "/" + name }

    /// The image's SHA-256 the name carries: the original's (a thumbnail is named by its original).
    public var sha256: ImageHash { .packed(hash) }

    /// A thumbnail's variant as its folder spells it (`40x40`, `40x40-contain.webp`): the `size`
    /// of its index row. Nil for an original.
    public var sizeText: String? {
        thumbnailSize.map { PackedVariant(bits: variant).name(width: Int($0.width), height: Int($0.height)).description }
    }

    /// The extension of the file's name (`jpg`, `png`).
    public var extensionText: String { fileExtension.text }

    /// The fan-out folder: `originals/ab` or `thumbs/40x40/ab`.
    public var folder: String {
        let fanOut = String(decoding: [PackedHash.digit(hash.firstByte >> 4), PackedHash.digit(hash.firstByte & 15)],
                            as: UTF8.self)
        if let sizeText { return "\(CacheLayout.thumbnailsFolder)/\(sizeText)/\(fanOut)" }
        return "\(CacheLayout.originalsFolder)/\(fanOut)"
    }

    /// Tells the fan-out folders apart without spelling them: the variant and the hash's first byte.
    public var folderID: UInt64 { UInt64(variant) << 40 | UInt64(size) << 8 | UInt64(hash.firstByte) }

    /// The file's name in its folder: `<sha256>.<extension>`.
    public var name: String {
        withName { String(cString: $0) }
    }

    /// Calls `body` with the file's name as a C string built on the stack: no heap String for
    /// each of the 85 000 files a prune unlinks.
    public func withName<T>(_ body: (UnsafePointer<CChar>) -> T) -> T {
        let capacity = 64 + 1 + Extension.longest + 1
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var index = 0
            hash.forEachHexDigit { buffer[index] = $0; index += 1 }
            buffer[64] = UInt8(ascii: ".")
            let fileExtension = fileExtension.bytes
            for (offset, byte) in fileExtension.enumerated() { buffer[65 + offset] = byte }
            buffer[65 + fileExtension.count] = 0
            return UnsafeRawPointer(buffer.baseAddress!).withMemoryRebound(to: CChar.self, capacity: capacity, body)
        }
    }
}

/// A thumbnail variant's fit, format and quality in 16 bits: bit 0 contain, bits 1–2 the format
/// (`ThumbnailFormat.allCases` order, PNG 0), bits 3–9 the quality (0 for the format's default).
/// The plain PNG cover variant is 0, so today's sizes pack as they always did.
struct PackedVariant {
    let bits: UInt16
    static let plain = PackedVariant(bits: 0)

    init(bits: UInt16) { self.bits = bits }

    init(_ name: ThumbnailVariantName) {
        let format = UInt16(ThumbnailFormat.allCases.firstIndex(of: name.format) ?? 0)
        bits = (name.fit == .contain ? 1 : 0) | format << 1 | UInt16(name.quality ?? 0) << 3
    }

    var format: ThumbnailFormat {
        let index = Int(bits >> 1 & 3)
        return ThumbnailFormat.allCases[index]
    }

    func name(width: Int, height: Int) -> ThumbnailVariantName {
        let quality = Int(bits >> 3 & 127)
        return ThumbnailVariantName(width: width, height: height, fit: bits & 1 == 1 ? .contain : .cover,
                                    format: format, quality: quality == 0 ? nil : quality)
    }
}
