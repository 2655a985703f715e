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
        #expect(scan.files.count == 7)
        #expect(try #require(scan.files["originals/ab/ab1.jpg"]) >= 5000)
    }

    @Test func theTotalBoundsBothOfDusCounts() throws {
        let root = try makeCache()
        let scan = try DiskScan.measure(root: root, lanes: 3)
        for flags in [["-sb"], ["-s", "-B1"]] {
            let du = Process()
            du.executableURL = URL(fileURLWithPath: "/usr/bin/du")
            du.arguments = flags + [root]
            let output = Pipe()
            du.standardOutput = output
            try du.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            du.waitUntilExit()
            let counted = try #require(Int(text.split(separator: "\t").first ?? ""))
            #expect(scan.usage >= counted, "du \(flags): \(counted), scan: \(scan.usage)")
        }
    }

    @Test func aMissingRootIsAnError() {
        #expect(throws: (any Error).self) { try DiskScan.measure(root: "/nonexistent/pm-\(UUID())") }
    }
}
