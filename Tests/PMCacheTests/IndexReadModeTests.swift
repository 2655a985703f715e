import Foundation
import Testing
@testable import PMCache

/// How a reader opens the index in a folder it may not write, and what each mode sees.
@Suite struct IndexReadModeTests {
    @Test func aFolderThatCannotBeWrittenIsReadThroughTheWALOnlyWhenAWriterLeftItsFiles() {
        #expect(IndexReadMode.attempts(folderWritable: true, walFilesPresent: false) == [.shared, .recovering])
        #expect(IndexReadMode.attempts(folderWritable: true, walFilesPresent: true) == [.shared, .recovering])
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

    /// A writer killed while it created the index leaves a hot rollback journal beside it: a
    /// read-only connection cannot roll it back ("attempt to write a readonly database"), so a
    /// reader in a folder it may write opens the index to recover it, and reads it.
    @Test func aHotJournalAKilledWriterLeftIsRolledBackByAReaderThatMayWrite() async throws {
        let live = FileManager.default.temporaryDirectory.appendingPathComponent("pm-hot-\(UUID().uuidString)")
        let copy = live.appendingPathExtension("copy")
        for folder in [live, copy] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let path = live.appendingPathComponent("index.sqlite").path
        let writer = try SQLiteConnection(path: path)
        try writer.execute("PRAGMA journal_mode=DELETE")
        try writer.execute("CREATE TABLE kept(x)")
        // A one-page cache spills the transaction into the main file, after the journal is
        // synced (its header written): what a kill during a commit leaves.
        try writer.execute("PRAGMA cache_size=1")
        try writer.execute("BEGIN")
        try writer.execute("CREATE TABLE unfinished(x)")
        try writer.execute("INSERT INTO unfinished SELECT zeroblob(500) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) SELECT i FROM n)")
        // Copied mid-transaction, the files are what a kill at this instant leaves: a journal no
        // process holds a lock for.
        for name in ["index.sqlite", "index.sqlite-journal"] {
            try FileManager.default.copyItem(at: live.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
        try writer.execute("ROLLBACK")
        let copied = copy.appendingPathComponent("index.sqlite").path

        #expect(throws: IndexError.self) { _ = try PhotoIndex(readingOnly: copied, attempts: [.shared]) }
        let reader = try PhotoIndex(readingOnly: copied)
        #expect(reader.readMode == .recovering)
        #expect(!FileManager.default.fileExists(atPath: copied + "-journal"), "the journal was rolled back")
        let tables = try SQLiteConnection(readingAt: copied, mode: .shared)
        let query = try tables.statement("SELECT group_concat(name) FROM sqlite_master WHERE type = 'table'")
        #expect(try query.step() && query.text(0) == "kept", "the unfinished transaction is gone")
        withExtendedLifetime(reader) {}
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
