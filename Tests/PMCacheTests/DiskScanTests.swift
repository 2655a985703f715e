import Foundation
import Testing
@testable import PMCache

/// The disk scan against a small real folder, and against `du`.
@Suite struct DiskScanTests {
    func makeCache() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pm-scan-\(UUID().uuidString)").path
        let files = [
            "originals/ab/ab1.jpg": 5000, "originals/cd/cd1.jpg": 1, "thumbs/40x40/ab/ab1.png": 300,
            "thumbs/40x40/ab/.tmp-123": 10, "feeds/k/manifest.json": 200, "index.html": 0, ".tmp-root": 3,
        ]
        for (path, size) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 7, count: size).write(to: url)
        }
        return root
    }

    @Test func filesAreClassifiedAsContentOrTempFiles() throws {
        let scan = try DiskScan.measure(root: try makeCache())
        #expect(scan.tempFiles == [".tmp-root", "thumbs/40x40/ab/.tmp-123"])
        #expect(Set(scan.contentFiles) == ["originals/ab/ab1.jpg", "originals/cd/cd1.jpg", "thumbs/40x40/ab/ab1.png"])
        #expect(scan.contentFileCount == 3)
        #expect(scan.files.count == 7)
        #expect(try #require(scan.files["originals/ab/ab1.jpg"]) >= 5000)
        // By kind as `stats` shows them, temp files in the content folders included.
        func bytes(_ paths: [CachePath]) throws -> Int { try paths.reduce(0) { $0 + (try #require(scan.files[$1])) } }
        #expect(scan.contentKinds.originals == (try bytes(["originals/ab/ab1.jpg", "originals/cd/cd1.jpg"])))
        #expect(scan.contentKinds.thumbnails == (try bytes(["thumbs/40x40/ab/ab1.png", "thumbs/40x40/ab/.tmp-123"])))
        #expect(try DiskScan.measure(root: try makeCache(), compact: true).contentKinds == scan.contentKinds)
    }

    @Test func theTotalBoundsBothOfDusCounts() async throws {
        let root = try makeCache()
        let scan = try DiskScan.measure(root: root, lanes: 3)
        for flags in [["-sb"], ["-s", "-B1"]] {
            let text = try await Self.output(of: "/usr/bin/du", flags + [root], into: root + ".du")
            let counted = try #require(Int(text.split(separator: "\t").first ?? ""))
            #expect(scan.usage >= counted, "du \(flags): \(counted), scan: \(scan.usage)")
        }
    }

    /// What a program printed, through a file and on a thread of its own. A pipe's write end,
    /// or the socket through which Foundation learns that the program ended, can leak into a
    /// program another test starts at the same instant, and the wait then lasts as long as that
    /// one runs: it must not hold a thread of the cooperative pool, which that test may need.
    static func output(of program: String, _ arguments: [String], into path: String) async throws -> String {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try process.run()
        let pid = process.processIdentifier
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            Thread {
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
                ended.resume()
            }.start()
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// A compact scan (content files by their path's hash) measures as a full one does.
    @Test(arguments: [false, true]) func aRemeasureAfterDeletingFilesMatchesAFullScan(compact: Bool) throws {
        let root = try makeCache()
        let hash = String(repeating: "ab", count: 32)
        var created: [String] = []
        for index in 0..<40 {
            let sha = String(format: "%02x", index) + hash.dropFirst(2)
            for path in [CacheLayout.originalPath(sha256: sha, fileExtension: "jpg"),
                         CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40")] {
                let url = URL(fileURLWithPath: root + "/" + path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(repeating: 1, count: 100 * index).write(to: url)
                created.append(path)
            }
        }
        var scan = try DiskScan.measure(root: root, lanes: 3, compact: compact)
        #expect(scan.contentFileCount == 83)
        #expect(scan.listsContentFiles == !compact)
        #expect(scan.diskBytes(of: CachePath(created[79])) == (try DiskScan.measure(root: root)).files[CachePath(created[79])])
        guard case .content = CachePath(created[0]) else {
            Issue.record("layout paths pack")
            return
        }
        // Half the images, a temp file and a page go; a fan-out folder is emptied and removed,
        // the gallery changes (as a prune's republishing would).
        let removed = Array(created.prefix(40)) + ["thumbs/40x40/ab/.tmp-123"]
        for path in removed { unlink(root + "/" + path) }
        for folder in ["originals/00", "thumbs/40x40/00", "originals/01", "thumbs/40x40/01"] { rmdir(root + "/" + folder) }
        try Data(repeating: 2, count: 9000).write(to: URL(fileURLWithPath: root + "/index.html"))
        try scan.remeasure(afterRemoving: removed.map { CachePath($0) })
        let full = try DiskScan.measure(root: root)
        #expect(scan.usage == full.usage)
        #expect(compact ? scan.files == full.files.filter { $0.key.isOriginal == nil || $0.key.description.contains("/.tmp-") }
                        : scan.files == full.files)
        for path in created + ["originals/ab/ab1.jpg", "originals/cd/cd1.jpg"] {
            #expect(scan.diskBytes(of: CachePath(path)) == full.files[CachePath(path)], "\(path)")
        }
        #expect(scan.tempFiles == full.tempFiles)
        #expect(scan.contentFileCount == full.contentFileCount)
        #expect(scan.contentKinds == full.contentKinds)
        #expect(full.contentKinds.originals > 0 && full.contentKinds.thumbnails > 0)
    }

    @Test func aMissingRootIsAnError() {
        #expect(throws: (any Error).self) { try DiskScan.measure(root: "/nonexistent/pm-\(UUID())") }
    }

    /// The compact table's lookup starts at a guess and widens: every size it holds is found,
    /// at the table's ends too, and nothing it lacks or removed. Sizes of 1, 2 and many.
    @Test func theCompactTableFindsEveryPathItHolds() {
        for count in [1, 2, 3, 50, 20_000] {
            let paths = (0..<count).map { CachePath("originals/\(String(format: "%02x", $0 % 256))/file-\($0).jpg") }
            var table = PathSizes(paths.enumerated().map { PathSizes.Entry(key: PathSizes.key($1), bytes: $0 * 10) })
            for (number, path) in paths.enumerated() {
                #expect(table.bytes(of: path) == number * 10, "\(path) of \(count)")
            }
            #expect(table.bytes(of: CachePath("originals/00/absent.jpg")) == nil)
            #expect(table.remove(paths[count / 2]) == count / 2 * 10)
            #expect(table.bytes(of: paths[count / 2]) == nil)
            #expect(table.count == count - 1)
        }
    }
}
