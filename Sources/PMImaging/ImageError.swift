/// A decode or encode failure, with a message meant for people ("JPEG: Premature end of JPEG file").
public struct ImageError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// Says what the bytes are without quoting them: they may be a local file's (`thumb`), and
    /// a file that is not an image may hold secrets.
    static func notAnImage(startingWith bytes: UnsafeRawBufferPointer) -> ImageError {
        guard !bytes.isEmpty else { return ImageError("not a \(ImageFormat.listed) image (empty input)") }
        let printable = bytes.prefix(64).allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return ImageError("not a \(ImageFormat.listed) image (\(bytes.count) byte\(bytes.count == 1 ? "" : "s") of \(printable ? "text" : "unknown binary data"))")
    }

    static func overPixelLimit(width: Int, height: Int, limit: Int) -> ImageError {
        ImageError("image is \(width)×\(height), over the \(limit)-pixel limit")
    }
}
