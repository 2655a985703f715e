/// One input format the thumbnailer reads: how to recognise its bytes (magic only, never a name
/// or Content-Type, which feeds get wrong), what to call and serve a file of it, and its decoder
/// with its limits. Each format is declared beside its decoder (`JPEGDecoding.swift`, …) and
/// listed once in `all`; a new format is that file, its C shim and one entry there.
public struct ImageFormat: Sendable, Hashable, CustomStringConvertible {
    /// Decodes to full-frame 8-bit pixels at the smallest scale that still covers every size,
    /// after checking the declared dimensions against the limits.
    typealias Decoder = @Sendable (UnsafeRawBufferPointer, [ThumbnailSize], DecodeLimits) throws(ImageError) -> DecodedImage
    /// The upright thumbnail pixels, one tile per size, and the placeholder's, in sRGB.
    typealias TileMaker = @Sendable (UnsafeRawBufferPointer, [ThumbnailSize], DecodeLimits) throws(ImageError) -> Tiles
    /// The upright size the header declares (`DeclaredSize`), read without decoding.
    typealias Prober = @Sendable (UnsafeRawBufferPointer, DecodeLimits) throws(ImageError) -> DeclaredSize

    /// Lower case, as the index's `originals.format` stores it: `jpeg`, `png`.
    public let name: String
    /// The extension of an original of this format in the cache: `jpg`, `png`.
    public let fileExtension: String
    public let mimeType: String
    /// Other extensions a file of the format is known by (`jpeg`), for serving.
    public let otherExtensions: [String]
    let matches: @Sendable (UnsafeRawBufferPointer) -> Bool
    let decoder: Decoder
    let probe: Prober
    /// The decoder's image made into tiles (`TileRendering`), unless the format scales as it
    /// decodes and so never holds the whole image.
    let tiles: TileMaker

    init(name: String, fileExtension: String, mimeType: String, otherExtensions: [String] = [],
         matches: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool, decoder: @escaping Decoder,
         probe: @escaping Prober, tiles: TileMaker? = nil) {
        self.name = name
        self.fileExtension = fileExtension
        self.mimeType = mimeType
        self.otherExtensions = otherExtensions
        self.matches = matches
        self.decoder = decoder
        self.probe = probe
        if let tiles {
            self.tiles = tiles
        } else {
            self.tiles = { bytes, sizes, limits throws(ImageError) in
                try TileRendering.tiles(try decoder(bytes, sizes, limits), sizes: sizes)
            }
        }
    }

    /// Every format, in the order their magic is tried.
    public static let all: [ImageFormat] = [.jpeg, .png, .webp, .gif, .avif, .heif]

    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        all.first { $0.matches(bytes) }
    }

    public static func named(_ name: String) -> ImageFormat? {
        all.first { $0.name == name }
    }

    /// "JPEG or PNG", "JPEG, PNG or WebP": for messages that list what is read.
    public static var listed: String {
        let names = all.map(\.displayName)
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// As people write it: `JPEG`, `WebP`.
    public var displayName: String { Self.displayNames[name] ?? name.uppercased() }
    private static let displayNames = ["webp": "WebP", "heic": "HEIC/HEIF"]

    public var description: String { name }

    public static func == (lhs: ImageFormat, rhs: ImageFormat) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension UnsafeRawBufferPointer {
    /// True when the bytes begin with `signature`.
    func starts(withMagic signature: [UInt8]) -> Bool {
        count >= signature.count && prefix(signature.count).elementsEqual(signature)
    }
}
