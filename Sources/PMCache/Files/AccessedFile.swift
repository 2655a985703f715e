/// A content file someone read, as the index names its row: an original by its hash, a
/// thumbnail by its original's hash and its size. What `serve` counts as a use for prune's
/// least-recently-used order.
public enum AccessedFile: Hashable, Sendable {
    case original(ImageHash)
    case thumbnail(ImageHash, size: String)

    /// `originals/<h0h1>/<sha256>.<ext>` or `thumbs/<variant>/<h0h1>/<sha256>.<ext>` exactly as the
    /// cache names them (`CachePath`'s packing); nil for any other path, which no row names.
    public init?(relativePath: String) {
        guard case .content(let name) = CachePath(relativePath) else { return nil }
        if let size = name.sizeText {
            self = .thumbnail(.packed(name.hash), size: size)
        } else {
            self = .original(.packed(name.hash))
        }
    }

    public var sha256: ImageHash {
        switch self {
        case .original(let hash), .thumbnail(let hash, _): hash
        }
    }
}
