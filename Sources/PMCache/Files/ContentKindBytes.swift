/// Disk use of a cache's content files by kind: originals (`originals/`) and thumbnails
/// (`thumbs/`), as `CachePath.isOriginal` tells them apart.
public struct ContentKindBytes: Sendable, Equatable {
    public private(set) var originals = 0
    public private(set) var thumbnails = 0

    public init() {}

    /// Counts `bytes` (negative: takes them off) for `path` when it is a content file.
    mutating func add(_ path: CachePath, bytes: Int) {
        switch path.isOriginal {
        case true?: originals += bytes
        case false?: thumbnails += bytes
        case nil: break
        }
    }

    static func += (total: inout ContentKindBytes, part: ContentKindBytes) {
        total.originals += part.originals
        total.thumbnails += part.thumbnails
    }
}
