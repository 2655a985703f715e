/// Where every file of the cache lives, relative to the cache root. Pure string maths, so the
/// layout can be unit-tested and documented (`cache-layout.md`) without touching a disk.
///
/// Content-addressed files fan out by the first two hex digits of their hash: 256 folders keep
/// each folder to a few hundred entries even at 100 000 originals.
public struct CacheLayout: Sendable, Equatable {
    public static let indexFile = "index.sqlite"
    public static let lockFile = "lock"
    public static let galleryFile = "index.html"
    public static let originalsFolder = "originals"
    public static let thumbnailsFolder = "thumbs"
    public static let feedsFolder = "feeds"
    public static let manifestFile = "manifest.json"
    public static let jsonFeedFile = "feed.json"

    /// Absolute path of the cache root, without a trailing slash.
    public let root: String

    public init(root: String) {
        var root = root
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        self.root = root
    }

    public func absolute(_ relativePath: String) -> String { root + "/" + relativePath }

    public var indexPath: String { absolute(Self.indexFile) }
    public var lockPath: String { absolute(Self.lockFile) }
    public var galleryPath: String { absolute(Self.galleryFile) }

    /// `originals/ab/abcdef….jpg` for a SHA-256 `abcdef…` of the original's bytes.
    public static func originalPath(sha256: String, fileExtension: String) -> String {
        "\(originalsFolder)/\(fanOut(sha256))/\(sha256).\(fileExtension)"
    }

    /// `thumbs/40x40/ab/abcdef….png`: keyed by the original's hash and the size spec (a variant's
    /// name: `40x40-contain.webp` gives `thumbs/40x40-contain.webp/ab/abcdef….webp`), so a
    /// thumbnail is found from the original alone and two variants never collide.
    public static func thumbnailPath(originalSHA256 sha256: String, size: String) -> String {
        "\(thumbnailsFolder)/\(size)/\(fanOut(sha256))/\(sha256).\(ThumbnailVariantName.fileExtension(ofFolder: size))"
    }

    /// `feeds/<key>/manifest.json`, where the key is derived from the feed URL (see `feedKey`).
    public static func manifestPath(feedKey: String) -> String {
        "\(feedsFolder)/\(feedKey)/\(manifestFile)"
    }

    /// `feeds/<key>/feed.json`: the feed as a JSON Feed 1.1 whose images are the mirrored ones.
    public static func jsonFeedPath(feedKey: String) -> String {
        "\(feedsFolder)/\(feedKey)/\(jsonFeedFile)"
    }

    /// The folders that hold content-addressed files: what `verify` walks for orphans.
    public static let contentFolders = [originalsFolder, thumbnailsFolder]

    private static func fanOut(_ sha256: String) -> String { String(sha256.prefix(2)) }
}

import PMSupport

extension CacheLayout {
    /// A short, stable, path-safe key for a feed URL: the first 16 hex digits of its SHA-256.
    /// 64 bits make a collision between one user's feeds practically impossible.
    public static func feedKey(url: String) -> String {
        String(Digest.sha256Hex(Array(url.utf8)).prefix(16))
    }
}
