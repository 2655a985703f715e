import Foundation
import PMSupport
import Testing

@Suite struct AtomicFileNamingTests {
    @Test func parentFolderIsEverythingBeforeTheLastSlash() {
        #expect("/cache/originals/ab/abcd.jpg".parentFolder == "/cache/originals/ab")
        #expect("originals/ab.jpg".parentFolder == "originals")
        #expect("/index.html".parentFolder == "/")
        #expect("index.html".parentFolder == ".")
        #expect("/cache/thumbs/".parentFolder == "/cache/thumbs")
    }

    /// Fifty writers of one file at once each get a temp file of their own.
    @Test func writersNeverShareATempFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-temp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/photo.jpg"
        let writers = try (0..<50).map { _ in try AtomicFileWriter(path: target) }
        let temps = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(temps.count == 50)
        #expect(temps.allSatisfy { $0.hasPrefix(AtomicFile.tempPrefix) })
        try writers[7].append(Array("seven".utf8))
        try writers[7].commit(sync: false)
        #expect(FileManager.default.contents(atPath: target) == Data("seven".utf8))
        _ = writers
    }

    @Test func foldersAreMadeWithTheirParentsAndAFileInTheWayIsAnError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-dirs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AtomicFile.makeDirectories(folder + "/originals/ab")
        try AtomicFile.makeDirectories(folder + "/originals/ab")
        try AtomicFile.makeDirectories(folder + "/originals/cd")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder + "/originals/cd", isDirectory: &isFolder) && isFolder.boolValue)
        #expect(FileManager.default.createFile(atPath: folder + "/thumbs", contents: Data()))
        #expect(throws: FileError.self) { try AtomicFile.makeDirectories(folder + "/thumbs") }
        #expect(throws: FileError.self) { try AtomicFile.makeDirectories(folder + "/thumbs/40") }
    }
}
