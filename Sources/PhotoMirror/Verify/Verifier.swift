import Foundation
import PMCache
import PMSupport

/// `photomirror verify`: proves the cache and its index agree. Read-only; opens the index
/// without taking the writers' lock (WAL lets it read beside a running sync).
public struct Verifier: Sendable {
    public let cacheRoot: String

    public init(cacheRoot: String) {
        self.cacheRoot = cacheRoot
    }

    public func run() async throws(SyncError) -> VerifyReport {
        let layout = CacheLayout(root: cacheRoot)
        guard FileManager.default.fileExists(atPath: layout.indexPath) else {
            throw SyncError(description: "\(layout.root): no photomirror cache here (no \(CacheLayout.indexFile))")
        }
        let index: PhotoIndex
        do {
            index = try PhotoIndex(path: layout.indexPath)
        } catch {
            throw SyncError(description: "cannot open the cache index: \(error)")
        }
        var report = VerifyReport()
        do {
            let files = try await index.allFiles()
            var indexed = Set<String>()
            for original in files.originals {
                indexed.insert(original.path)
                check(layout: layout, path: original.path, bytes: original.bytes, sha256: original.sha256, into: &report)
            }
            for thumbnail in files.thumbnails {
                indexed.insert(thumbnail.path)
                check(layout: layout, path: thumbnail.path, bytes: thumbnail.bytes, sha256: thumbnail.sha256, into: &report)
            }
            try await checkManifests(layout: layout, index: index, into: &report)
            findGarbage(layout: layout, indexed: indexed, into: &report)
        } catch {
            throw SyncError(description: "cannot read the cache index: \(error)")
        }
        return report
    }

    private func check(layout: CacheLayout, path: String, bytes: Int, sha256: String, into report: inout VerifyReport) {
        report.checkedFiles += 1
        guard let data = FileManager.default.contents(atPath: layout.absolute(path)) else {
            report.damage.append("\(path): indexed but missing")
            return
        }
        if data.count != bytes {
            report.damage.append("\(path): \(data.count) bytes, index says \(bytes)")
        } else if Digest.sha256Hex(data) != sha256 {
            report.damage.append("\(path): content does not match its SHA-256 \(sha256)")
        }
    }

    private func checkManifests(layout: CacheLayout, index: PhotoIndex, into report: inout VerifyReport) async throws {
        for feed in try await index.feeds() {
            report.checkedManifests += 1
            let manifestPath = CacheLayout.manifestPath(feedKey: feed.key)
            guard let data = FileManager.default.contents(atPath: layout.absolute(manifestPath)) else {
                report.damage.append("\(manifestPath): manifest of \(feed.url) is missing")
                continue
            }
            guard let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
                report.damage.append("\(manifestPath): not a valid manifest")
                continue
            }
            for item in manifest.items {
                let referenced = [item.original, item.thumbnail].compactMap { $0 } + item.thumbnails.values
                for path in Set(referenced) where !FileManager.default.fileExists(atPath: layout.absolute(path)) {
                    report.damage.append("\(manifestPath): item \(item.id) points at missing \(path)")
                }
            }
        }
    }

    private func findGarbage(layout: CacheLayout, indexed: Set<String>, into report: inout VerifyReport) {
        for folder in CacheLayout.contentFolders + [CacheLayout.feedsFolder] {
            guard let walker = FileManager.default.enumerator(atPath: layout.absolute(folder)) else { continue }
            while let name = walker.nextObject() as? String {
                let relative = folder + "/" + name
                let file = (name as NSString).lastPathComponent
                if walker.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { continue }
                if file.hasPrefix(AtomicFile.tempPrefix) {
                    report.garbage.append("\(relative): temp file left by an interrupted writer")
                } else if folder != CacheLayout.feedsFolder, !indexed.contains(relative) {
                    report.garbage.append("\(relative): not in the index (orphan)")
                }
            }
        }
        if let rootFiles = try? FileManager.default.contentsOfDirectory(atPath: layout.root) {
            for file in rootFiles where file.hasPrefix(AtomicFile.tempPrefix) {
                report.garbage.append("\(file): temp file left by an interrupted writer")
            }
        }
    }
}
