import Foundation
import Testing
@testable import PMCache

/// How a reader opens the index in a folder it may not write, and what each mode sees.
@Suite struct IndexReadModeTests {
    @Test func aFolderThatCannotBeWrittenIsReadThroughTheWALOnlyWhenAWriterLeftItsFiles() {
        #expect(IndexReadMode.attempts(folderWritable: true, walFilesPresent: false) == [.shared])
        #expect(IndexReadMode.attempts(folderWritable: true, walFilesPresent: true) == [.shared])
        #expect(IndexReadMode.attempts(folderWritable: false, walFilesPresent: true) == [.shared, .immutable])
        #expect(IndexReadMode.attempts(folderWritable: false, walFilesPresent: false) == [.immutable])
    }

    @Test func theImmutableURIKeepsEveryCharacterOfThePath() {
        #expect(SQLiteConnection.immutableURI("/c/a b?c#d%e/index.sqlite")
            == "file:/c/a%20b%3Fc%23d%25e/index.sqlite?immutable=1")
        #expect(SQLiteConnection.immutableURI("/c/é\n") == "file:/c/%C3%A9%0A?immutable=1")
    }

    @Test func anImmutableReaderOpensAnIndexInAFolderWithURICharactersInItsName() async throws {
        let path = try Self.index(inFolderNamed: "pm read?only#%-\(UUID().uuidString)")
        let reader = try PhotoIndex(readingOnly: path, attempts: [.immutable])
        #expect(reader.readMode == .immutable)
        #expect(try await reader.meta(MetaKey.schemaVersion) == String(IndexSchema.version))
    }

    @Test func anImmutableReaderSeesAnOlderSchemaInTheNewShape() async throws {
        let path = try IndexMigrationTests().schemaOneIndex()
        let reader = try PhotoIndex(readingOnly: path, attempts: [.immutable])
        #expect(try await reader.items(feedKey: "k").map(\.mediaURL) == ["https://m/1.jpg"])
        #expect(try await reader.meta(MetaKey.schemaVersion) == "1")
    }

    /// The lag `IndexReadMode.lagNote` warns of: a commit still in a live writer's `-wal` is
    /// seen through the WAL, and not by an immutable reader of the main file.
    @Test func onlyASharedReaderSeesCommitsStillInTheWAL() async throws {
        let path = try Self.index(inFolderNamed: "pm-wal-\(UUID().uuidString)")
        let writer = try SQLiteConnection(path: path)
        try writer.execute("PRAGMA wal_autocheckpoint=0")
        try writer.transaction { () throws(IndexError) in
            try writer.execute("INSERT INTO meta(key, value) VALUES('probe', 'committed')")
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try await PhotoIndex(readingOnly: path, attempts: [.shared]).meta("probe") == "committed")
        #expect(try await PhotoIndex(readingOnly: path, attempts: [.immutable]).meta("probe") == nil)
        withExtendedLifetime(writer) {}
    }

    /// A new index, its writer closed (so its `-wal` was checkpointed into the main file).
    static func index(inFolderNamed name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("index.sqlite").path
        _ = try PhotoIndex(path: path)
        return path
    }
}
