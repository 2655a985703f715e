import Foundation
import PMCache
import PMSupport

/// The checks of `verify`, over any open index (read-only for `verify`, the locked writer's for
/// `verify --repair`): indexed files against their rows, manifests and gallery pages against
/// the disk, and the disk against the index for garbage.
struct CacheInspection: Sendable {
    let layout: CacheLayout
    let index: PhotoIndex

    func run() async throws -> VerifyReport {
        var report = VerifyReport()
        let rows = try await index.allFiles()
        let files = IndexedFile.all(in: rows)
        report.checkedFiles = files.count
        for (file, problem) in await FileCheck(layout: layout).failures(files) {
            report.damage.append("\(file.path): \(problem)")
            switch file.role {
            case .original(let sha256): report.findings.originals.append(sha256)
            case .thumbnail(let sha256, let size): report.findings.thumbnails.append((sha256, size))
            }
        }
        try await checkManifests(into: &report)
        let scan = try await DiskScan.measure(layout)
        checkPages(scan: scan, into: &report)
        for file in PruneRun.garbage(in: scan, indexed: rows) {
            let name = (file.path as NSString).lastPathComponent
            report.garbage.append(name.hasPrefix(AtomicFile.tempPrefix)
                ? "\(file.path): temp file left by an interrupted writer" : "\(file.path): not in the index (orphan)")
            report.findings.garbage.append(file.path)
        }
        return report
    }

    private func checkManifests(into report: inout VerifyReport) async throws {
        for feed in try await index.feeds() {
            report.checkedManifests += 1
            let manifestPath = CacheLayout.manifestPath(feedKey: feed.key)
            guard let data = FileManager.default.contents(atPath: layout.absolute(manifestPath)) else {
                damagePage("\(manifestPath): manifest of \(feed.url) is missing", into: &report)
                continue
            }
            guard let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
                damagePage("\(manifestPath): not a valid manifest", into: &report)
                continue
            }
            for item in manifest.items {
                let referenced = [item.original, item.thumbnail].compactMap { $0 } + item.thumbnails.values
                for path in Set(referenced).sorted() where !FileManager.default.fileExists(atPath: layout.absolute(path)) {
                    damagePage("\(manifestPath): item \(item.id) points at missing \(path)", into: &report)
                }
            }
        }
    }

    /// The gallery's pages (`index.html` and any `.html` under `feeds/`) must not link to a
    /// missing file: a broken link there is a broken image in someone's browser.
    private func checkPages(scan: DiskScan, into report: inout VerifyReport) {
        let pages = scan.files.keys.filter { path in
            path.hasSuffix(".html") && (path == CacheLayout.galleryFile || path.hasPrefix(CacheLayout.feedsFolder + "/"))
                && !(path as NSString).lastPathComponent.hasPrefix(AtomicFile.tempPrefix)
        }.sorted()
        for page in pages {
            report.checkedPages += 1
            guard let data = FileManager.default.contents(atPath: layout.absolute(page)) else { continue }
            let folder = URL(fileURLWithPath: layout.absolute((page as NSString).deletingLastPathComponent))
            for link in Set(PageLinks.relative(in: String(decoding: data, as: UTF8.self))).sorted() {
                let target = folder.appendingPathComponent(link.split(separator: "?").first.map(String.init) ?? link)
                    .standardizedFileURL.path
                if !FileManager.default.fileExists(atPath: target) {
                    let inCache = target.hasPrefix(layout.root + "/") ? String(target.dropFirst(layout.root.count + 1)) : link
                    damagePage("\(page): links to missing \(inCache)", into: &report)
                }
            }
        }
    }

    private func damagePage(_ line: String, into report: inout VerifyReport) {
        report.damage.append(line)
        report.findings.pagesDamaged = true
    }
}
