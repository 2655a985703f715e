/// The exact pixel size of a thumbnail. Its `description` ("40x40") is part of cache keys.
public struct ThumbnailSize: Sendable, Hashable, CustomStringConvertible {
    /// Larger sides are refused: a thumbnail is small, and the limit keeps buffers bounded.
    public static let maxSide = 4096

    public let width: Int
    public let height: Int

    /// Both sides must be in 1...maxSide; use `init?(parsing:)` for untrusted input.
    public init(width: Int, height: Int) {
        precondition((1...Self.maxSide).contains(width) && (1...Self.maxSide).contains(height),
                     "thumbnail size \(width)x\(height) is outside 1...\(Self.maxSide)")
        self.width = width
        self.height = height
    }

    /// Parses "WxH" (either case of x), digits only: "40x40", "80X60". Nil for anything else,
    /// including zero, negative or signed numbers, whitespace and sides over `maxSide`.
    public init?(parsing spec: String) {
        let parts = spec.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "X" })
        guard parts.count == 2,
              let width = Self.side(parts[0]), let height = Self.side(parts[1]) else { return nil }
        self.init(width: width, height: height)
    }

    public var description: String { "\(width)x\(height)" }

    private static func side(_ text: Substring) -> Int? {
        // Int(_:) alone would accept "+40"; sizes are plain digit strings.
        guard !text.isEmpty, text.allSatisfy({ ("0"..."9").contains($0) }),
              let value = Int(text), (1...maxSide).contains(value) else { return nil }
        return value
    }
}
