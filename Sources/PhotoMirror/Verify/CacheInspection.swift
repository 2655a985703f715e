import Foundation
import PMCache
import PMSupport

/// The checks of `verify`, over any open index (read-only for `verify`, the locked writer's for
/// `verify --repair`): indexed files against their rows, manifests, JSON Feeds and gallery pages
/// against the disk, and the disk against the index for garbage. The file work runs on threads
/// of its own.
struct CacheInspection: Sendable {
    let layout: CacheLayout
    let index: PhotoIndex

    func run() async throws -> VerifyReport {
        var report = VerifyReport()
        await index.boundPageCache(kibibytes: PruneRun.pageCacheKibibytes)
        let rows = try await index.allFiles()
        let files = IndexedFile.all(in: rows)
        report.checkedFiles = files.count
        for (file, problem) in await FileCheck(layout: layout).failures(files) {
            report.damage.append("\(file.path): \(problem)")
            report.findings.damagedFiles.append(file.path)
            switch file.role {
            case .original(let sha256): report.findings.originals.append(sha256)
            case .thumbnail(let sha256, let size): report.findings.thumbnails.append((sha256, size))
            }
        }
        let feeds = try await index.feeds()
        let scan = try await LocalStorage(layout: layout).inventory()
        let references = try await Self.onOwnThread { [layout] in ReferenceCheck(layout: layout, scan: scan, feeds: feeds).run() }
        report.checkedManifests = references.manifests
        report.checkedJSONFeeds = references.jsonFeeds
        report.checkedPages = references.pages
        report.damage += references.damage
        report.stale = references.stale
        report.findings.pagesDamaged = !references.damage.isEmpty
        report.findings.documentsStale = !references.stale.isEmpty
        let stored = EvictionRows(
            originals: rows.originals.map { IndexedFileRow(sha256: ImageHash($0.sha256), path: CachePath($0.path), lastAccess: 0) },
            thumbnails: rows.thumbnails.map {
                IndexedFileRow(sha256: ImageHash($0.originalSHA256), path: CachePath($0.path), lastAccess: 0)
            })
        for file in PruneRun.garbage(in: scan, blobs: EvictionPolicy.blobs(stored, diskBytes: scan.files)) {
            let path = file.path.description
            report.garbage.append(DiskScan.isTemp(path)
                ? "\(path): temp file left by an interrupted writer" : "\(path): not in the index (orphan)")
            report.findings.garbage.append(path)
        }
        return report
    }

    private static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let pool = BlockingPool(threads: 1, name: "photomirror.verify")
        defer { pool.shutdown() }
        return try await pool.run(work)
    }
}
