import PMCache

/// Which answers count as a reader using a file, for prune's least-recently-used order.
///
/// A GET answered 200 or 206 sent the file's bytes. A 304 counts too: the browser is showing
/// its cached copy of that very file, so the file is in use even though nothing was sent (with
/// immutable caching a revalidation is rare, so counting it costs nothing). A HEAD reads no
/// bytes and comes from link checkers and monitors, which must not keep every file alive; a
/// 404 names no file, a 416 sent nothing.
enum CountedAccess {
    static func of(method: String, status: Int, relativePath: String) -> AccessedFile? {
        guard method == "GET", [200, 206, 304].contains(status) else { return nil }
        return AccessedFile(relativePath: relativePath)
    }
}
