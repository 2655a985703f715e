/// An image's SHA-256 as the index names it: packed into four words when it is 64 lower-case hex
/// digits (every hash photomirror writes), kept as text otherwise. A prune joins, sorts and
/// looks up 100 000 of them; packed, that touches no heap String.
public enum ImageHash: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    case packed(PackedHash)
    case text(String)

    public init(_ text: String) {
        self = text.withUTF8Bytes { PackedHash(hex: $0) }.map(ImageHash.packed) ?? .text(text)
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        self = PackedHash(hex: bytes).map(ImageHash.packed) ?? .text(String(decoding: bytes, as: UTF8.self))
    }

    public var description: String {
        switch self {
        case .packed(let hash):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(64)
            hash.appendHex(to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        case .text(let text):
            return text
        }
    }

    /// The order of the hashes' text, cheaply when both are packed.
    public static func < (lhs: ImageHash, rhs: ImageHash) -> Bool {
        if case .packed(let left) = lhs, case .packed(let right) = rhs { return left < right }
        return lhs.description < rhs.description
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .packed(let hash): hash.hash(into: &hasher)
        case .text(let text): hasher.combine(text)
        }
    }

    /// Appends the hash's text as UTF-8.
    func appendText(to bytes: inout [UInt8]) {
        switch self {
        case .packed(let hash): hash.appendHex(to: &bytes)
        case .text(let text): bytes += text.utf8
        }
    }
}
