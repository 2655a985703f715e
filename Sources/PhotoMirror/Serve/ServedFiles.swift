import PMCache
import PMImaging

/// Which files of a cache the server shows, and as what. Only the kinds a gallery is made of
/// are served; the index, its journals, the writer lock and anything without a known
/// extension never are, even through a symlink (the check runs on the resolved path too).
public enum ServedFiles {
    public static let mimeTypes: [String: String] = {
        var types = [
            "html": "text/html; charset=utf-8",
            "json": "application/json",
            "css": "text/css; charset=utf-8",
            "js": "text/javascript; charset=utf-8",
            "svg": "image/svg+xml",
        ]
        // The originals' extensions come from the formats photomirror reads.
        for format in ImageFormat.all {
            for name in [format.fileExtension] + format.otherExtensions { types[name] = format.mimeType }
        }
        return types
    }()

    /// The Content-Type for a cache-relative path, or nil when it must not be served.
    public static func contentType(of relativePath: String) -> String? {
        let segments = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = segments.last, !name.isEmpty,
              !segments.contains(where: { $0.isEmpty || $0.hasPrefix(".") }),
              !name.hasPrefix(CacheLayout.indexFile), !(segments.count == 1 && name == CacheLayout.lockFile),
              let dot = name.lastIndex(of: "."), dot != name.startIndex
        else { return nil }
        return mimeTypes[name[name.index(after: dot)...].lowercased()]
    }

    /// Files under originals/ and thumbs/ are named by content: a URL's bytes never change.
    public static func isContentAddressed(_ relativePath: String) -> Bool {
        CacheLayout.contentFolders.contains { relativePath.hasPrefix($0 + "/") }
    }
}
