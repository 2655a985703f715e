/// A decode or encode failure, with a message meant for people ("JPEG: Premature end of JPEG file").
public struct ImageError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    static func notAnImage(startingWith bytes: UnsafeRawBufferPointer) -> ImageError {
        guard !bytes.isEmpty else { return ImageError("not a \(ImageFormat.listed) image (empty input)") }
        let hex = bytes.prefix(4).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return ImageError("not a \(ImageFormat.listed) image (starts with \(hex.joined(separator: " ")))")
    }

    static func overPixelLimit(width: Int, height: Int, limit: Int) -> ImageError {
        ImageError("image is \(width)×\(height), over the \(limit)-pixel limit")
    }
}
