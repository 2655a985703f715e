/// A width and height in pixels as people write them, `WxH`: `32x32`, `100X50`. The least size an
/// image must have to be mirrored (`--min-pixels`, the `min_pixels` setting).
public struct PixelSize: Sendable, Equatable, CustomStringConvertible {
    /// Sides past this are refused as a typo: a limit that large would leave out every image
    /// (JPEG and WebP sides stop at 65535 and 16383; a wider PNG is over any pixel limit).
    public static let maxSide = 1_000_000

    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String {
            "\"\(text)\" is not a size in pixels: \(reason) (write WxH, e.g. 32x32)"
        }
    }

    /// `32x32`, either case of x, plain digits on both sides, each 1...maxSide.
    public static func parse(_ text: String) throws(ParseError) -> PixelSize {
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw fail("it is empty") }
        guard !trimmed.hasPrefix("-") else { throw fail("a side cannot be negative") }
        let sides = trimmed.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "X" })
        guard sides.count == 2 else { throw fail("it needs a width and a height joined by x") }
        var values: [Int] = []
        for side in sides {
            // Int(_:) alone would take "+32" and "-32".
            guard !side.isEmpty, side.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw fail(side.contains("-") ? "a side cannot be negative" : "each side must be a whole number")
            }
            guard let value = Int(side), value <= maxSide else { throw fail("a side is over \(maxSide)") }
            guard value >= 1 else { throw fail("each side must be at least 1") }
            values.append(value)
        }
        return PixelSize(width: values[0], height: values[1])
    }

    /// `32x32`, as `parse` reads it back.
    public var description: String { "\(width)x\(height)" }
}
