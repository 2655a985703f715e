import Foundation
import PMCache
import PMImaging
import PMSupport

/// The index rows of the cache's content files, for a rebuilt index: `originals/<h0h1>/<sha256>.<ext>`
/// an original's row, `thumbs/<W>x<H>/<h0h1>/<sha256>.png` a thumbnail's, each with its size,
/// the PNG's own hash, and its modification time as stored-at and last-access time.
///
/// Every file is read and hashed, on a pool of its own with a thread per core (blocking work
/// that must stay off the cooperative pool): an original whose bytes do not hash to its name
/// gets no row, so the repair's sweep deletes it as an orphan and the items naming it read as
/// evicted-original, which the next sync fetches again. Files are read
/// straight from the folder, as `verify`'s `FileCheck` reads them: the index and the files it
/// checks are local, whatever stores the published documents.
struct ContentRows: Sendable {
    var originals: [OriginalRecord] = []
    var thumbnails: [ThumbnailRecord] = []
    /// Content files that got no row, with the reason.
    var rejected: [String] = []

    static func read(_ paths: [CachePath], layout: CacheLayout) async -> ContentRows {
        guard !paths.isEmpty else { return ContentRows() }
        let lanes = min(ProcessInfo.processInfo.activeProcessorCount, paths.count)
        let pool = BlockingPool(threads: lanes, name: "photomirror.rebuild")
        defer { pool.shutdown() }
        return await withTaskGroup(of: ContentRows.self) { group in
            for lane in 0..<lanes {
                let share = stride(from: lane, to: paths.count, by: lanes).map { paths[$0] }
                group.addTask {
                    (try? await pool.run {
                        var rows = ContentRows()
                        for path in share { rows.add(path, layout: layout) }
                        return rows
                    }) ?? ContentRows()
                }
            }
            var all = ContentRows()
            for await rows in group {
                all.originals += rows.originals
                all.thumbnails += rows.thumbnails
                all.rejected += rows.rejected
            }
            all.rejected.sort()
            return all
        }
    }

    /// Reads one file and gives it its row, or says why not. Blocking.
    mutating func add(_ path: CachePath, layout: CacheLayout) {
        guard case .content(let name) = path else { return rejected.append("\(path): not a content file's name") }
        let text = path.description
        guard let file = Self.contents(layout.absolute(text)) else { return rejected.append("\(text): cannot be read") }
        let sha256 = name.sha256.description
        if let size = name.sizeText {
            // Taken as it is: its name holds its original's hash, not its own, so there is
            // nothing to check it against, and a rebuild must not delete what verify accepted.
            thumbnails.append(ThumbnailRecord(
                originalSHA256: sha256, size: size, bytes: file.bytes.count,
                sha256: Digest.sha256Hex(file.bytes), storedAt: file.modified, lastAccess: file.modified))
        } else {
            guard Digest.sha256Hex(file.bytes) == sha256 else {
                return rejected.append("\(text): content does not match its SHA-256")
            }
            guard let format = ImageFormat.all.first(where: { $0.fileExtension == name.extensionText }) else {
                return rejected.append("\(text): not an image format photomirror stores")
            }
            originals.append(OriginalRecord(sha256: sha256, path: text, bytes: file.bytes.count, format: format.name,
                                            storedAt: file.modified, lastAccess: file.modified))
        }
    }

    /// Gives each original the decoding warning and the placeholder a manifest names for its
    /// image (the manifests are all that keeps them once the index is gone).
    mutating func takeManifestFields(from media: [[ManifestRows.Media]]) {
        var warnings: [String: String] = [:], placeholders: [String: String] = [:]
        for entry in media.joined() {
            if let warning = entry.warning { warnings[entry.sha256] = warning }
            if let placeholder = entry.placeholder { placeholders[entry.sha256] = placeholder }
        }
        guard !warnings.isEmpty || !placeholders.isEmpty else { return }
        for index in originals.indices {
            originals[index].warning = warnings[originals[index].sha256]
            originals[index].placeholder = placeholders[originals[index].sha256]
        }
    }

    /// The file's bytes and modification time (seconds since 1970), or nil when it can't be read.
    private static func contents(_ path: String) -> (bytes: [UInt8], modified: Double)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            filled += got
        }
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return (bytes, modified)
    }
}
