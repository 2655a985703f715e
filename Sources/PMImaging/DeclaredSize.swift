/// An image's size as its header declares it, upright: a JPEG's SOF, a PNG's IHDR, a WebP's
/// canvas, a GIF's logical screen, a HEIF's primary image after its transforms, with an EXIF (or
/// XMP) rotation by 90° exchanging the sides as the thumbnailer would. Read by the format's shim
/// opening the file (markers, chunks or boxes up to the pixel data), so it costs no decode: a sync
/// can leave out an icon or a spacer before decoding it (`--min-pixels`).
public struct DeclaredSize: Sendable, Equatable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Throws what the format's shim says of a header it cannot read, or that the bytes are no
    /// image it reads; a decode would fail the same way. `limits` bounds what the shims allocate
    /// for the header (a HEIF's boxes, a JPEG's markers), not the size returned.
    public init(of bytes: UnsafeRawBufferPointer, limits: DecodeLimits = .default) throws(ImageError) {
        guard let format = ImageFormat.sniff(bytes) else { throw .notAnImage(startingWith: bytes) }
        self = try format.probe(bytes, limits)
    }

    public init(of bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImageError) in try DeclaredSize(of: buffer, limits: limits) }
        }
        self = try result.get()
    }

    /// Stored sides made upright by `orientation`.
    init(storedWidth: Int, storedHeight: Int, orientation: ExifOrientation) {
        self = orientation.swapsAxes ? DeclaredSize(width: storedHeight, height: storedWidth)
            : DeclaredSize(width: storedWidth, height: storedHeight)
    }

    /// `1×1 px`, as messages give it.
    public var description: String { "\(width)×\(height) px" }
}
