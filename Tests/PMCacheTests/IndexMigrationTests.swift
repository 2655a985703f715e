import Foundation
import Testing
@testable import PMCache

/// An index written by schema 1 (one image per item) opens as schema 2: migrated in place by a
/// writer, shown in the new shape to a reader without touching the file.
@Suite struct IndexMigrationTests {
    /// The tables as schema 1 created them, with one feed and one item.
    static let schemaOne = """
    PRAGMA journal_mode=WAL;
    CREATE TABLE IF NOT EXISTS meta(
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS originals(
        sha256 TEXT PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        bytes INTEGER NOT NULL,
        format TEXT NOT NULL,
        stored_at REAL NOT NULL,
        last_access REAL NOT NULL);
    CREATE TABLE IF NOT EXISTS thumbnails(
        original_sha256 TEXT NOT NULL,
        size TEXT NOT NULL,
        path TEXT NOT NULL UNIQUE,
        bytes INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        stored_at REAL NOT NULL,
        last_access REAL NOT NULL,
        PRIMARY KEY(original_sha256, size));
    CREATE TABLE IF NOT EXISTS resources(
        url TEXT PRIMARY KEY,
        sha256 TEXT NOT NULL,
        etag TEXT,
        last_modified TEXT,
        content_type TEXT,
        fetched_at REAL NOT NULL,
        last_access REAL NOT NULL);
    CREATE INDEX IF NOT EXISTS resources_by_sha256 ON resources(sha256);
    CREATE TABLE IF NOT EXISTS feeds(
        key TEXT PRIMARY KEY,
        url TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        link TEXT,
        attribution TEXT,
        etag TEXT,
        last_modified TEXT,
        last_sync REAL NOT NULL);
    CREATE TABLE IF NOT EXISTS items(
        feed_key TEXT NOT NULL REFERENCES feeds(key) ON DELETE CASCADE,
        item_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        title TEXT NOT NULL,
        link TEXT,
        published REAL,
        date_taken REAL,
        author TEXT,
        tags TEXT NOT NULL,
        description TEXT,
        media_url TEXT,
        status TEXT NOT NULL,
        error TEXT,
        sha256 TEXT,
        PRIMARY KEY(feed_key, item_id));
    CREATE INDEX IF NOT EXISTS items_by_sha256 ON items(sha256);
    INSERT OR IGNORE INTO meta(key, value) VALUES('schema_version', '1');

    INSERT INTO feeds VALUES('k', 'https://f/', 'rss', 'F', NULL, NULL, '"e"', NULL, 7);
    INSERT INTO items VALUES('k', '1', 0, 't', NULL, NULL, NULL, NULL, '[]', NULL, 'https://m/1.jpg', 'ok', NULL, 'aa');
    INSERT INTO originals VALUES('aa', 'originals/aa/aa.jpg', 10, 'jpeg', 1, 2);
    INSERT INTO thumbnails VALUES('aa', '40x40', 'thumbs/40x40/aa/aa.png', 3, 'taa', 1, 4);
    INSERT INTO thumbnails VALUES('aa', '80x80', 'thumbs/80x80/aa/aa.png', 5, 'taa2', 1, 6);
    """

    func schemaOneIndex() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("index.sqlite").path
        let connection = try SQLiteConnection(path: path)
        try connection.execute(Self.schemaOne)
        return path
    }

    @Test func aReaderSeesASchemaOneIndexInTheNewShape() async throws {
        let path = try schemaOneIndex()
        let reader = try PhotoIndex(readingOnly: path)
        #expect(try await reader.thumbnails(of: "aa")["80x80"]?.path == "thumbs/80x80/aa/aa.png")
        let images = try await reader.evictionImages()
        #expect(images.hashes.indices.map { images.thumbnailSizes($0).count }.reduce(0, +) == 2)
        let items = try await reader.items(feedKey: "k")
        #expect(items.map(\.mediaURL) == ["https://m/1.jpg"])
        #expect(items.first?.mediaSource == nil && items.first?.moreMedia == [])
        #expect(try await reader.feed(key: "k")?.warnings == [])
        #expect(try await reader.feedItems(feedKey: "k").items.count == 1)
        #expect(try await reader.meta(MetaKey.schemaVersion) == "1")
    }

    @Test func aWriterMigratesASchemaOneIndexInPlace() async throws {
        let path = try schemaOneIndex()
        let index = try PhotoIndex(path: path)
        #expect(try await index.meta(MetaKey.schemaVersion) == String(IndexSchema.version))
        var items = try await index.items(feedKey: "k")
        let feed = try #require(try await index.feed(key: "k"))
        items[0].moreMedia = [MediaRecord(url: "https://m/2.jpg", source: "html", status: .ok, error: nil, sha256: "bb")]
        try await index.replaceFeed(feed, items: items)
        #expect(try await index.items(feedKey: "k").first?.moreMedia.map(\.url) == ["https://m/2.jpg"])
        // Opening again finds nothing left to migrate.
        _ = try PhotoIndex(path: path)
    }

    /// Version 4: the thumbnail rows, without the path they always had, in a table keyed by
    /// (original, size) alone; no index of items by hash.
    @Test func aWriterRewritesTheThumbnailsWithoutTheirPaths() async throws {
        let path = try schemaOneIndex()
        let index = try PhotoIndex(path: path)
        let thumbnails = try await index.thumbnails(of: "aa")
        #expect(thumbnails == [
            "40x40": ThumbnailRecord(originalSHA256: "aa", size: "40x40", bytes: 3, sha256: "taa", storedAt: 1, lastAccess: 4),
            "80x80": ThumbnailRecord(originalSHA256: "aa", size: "80x80", bytes: 5, sha256: "taa2", storedAt: 1, lastAccess: 6),
        ])
        #expect(thumbnails["40x40"]?.path == "thumbs/40x40/aa/aa.png")
        let schema = try SQLiteConnection(path: path, readOnly: true)
        let query = try schema.statement("SELECT name, sql FROM sqlite_schema WHERE tbl_name IN ('thumbnails', 'items')")
        var objects: [String: String] = [:]
        while try query.step() { objects[query.text(0) ?? ""] = query.text(1) ?? "" }
        #expect(objects["thumbnails"]?.contains("WITHOUT ROWID") == true)
        #expect(objects["thumbnails"]?.contains("path") == false)
        #expect(objects["items_by_sha256"] == nil && objects.keys.allSatisfy { !$0.hasPrefix("thumbnails_") })
        #expect(try await index.allFiles().thumbnails.map(\.size) == ["40x40", "80x80"])
    }
}

/// Version 6: a schema 5 index gains `originals.placeholder` when a writer opens it; its rows
/// keep what they held, their placeholder NULL until the image is decoded again.
@Suite struct PlaceholderColumnMigrationTests {
    /// An index as schema 5 wrote it: today's tables without `originals.placeholder`.
    func schemaFiveIndex() async throws -> String {
        let path = try IndexMigrationTests().schemaOneIndex()
        _ = try PhotoIndex(path: path)
        let connection = try SQLiteConnection(path: path)
        try connection.execute("""
            ALTER TABLE originals DROP COLUMN placeholder;
            UPDATE meta SET value = '5' WHERE key = 'schema_version';
            """)
        return path
    }

    @Test func aWriterAddsThePlaceholderColumnToASchemaFiveIndex() async throws {
        let path = try await schemaFiveIndex()
        let reader = try PhotoIndex(readingOnly: path)
        #expect(try await reader.meta(MetaKey.schemaVersion) == "5")
        #expect(try await reader.original(sha256: "aa")?.placeholder == nil, "a reader sees the column NULL")

        let index = try PhotoIndex(path: path)
        #expect(try await index.meta(MetaKey.schemaVersion) == "6")
        let kept = try #require(try await index.original(sha256: "aa"))
        #expect(kept.placeholder == nil && kept.path == "originals/aa/aa.jpg")
        let original = OriginalRecord(sha256: "bb", path: "originals/bb/bb.png", bytes: 9, format: "png",
                                      storedAt: 1, lastAccess: 1, placeholder: "HQgOBxhwd3dweHiHiHiIeIiH9/iFcH8I")
        try await index.record(resource: ResourceRecord(url: "https://m/2.png", sha256: "bb", etag: nil, lastModified: nil,
                                                        contentType: nil, fetchedAt: 1, lastAccess: 1),
                               original: original, thumbnails: [])
        #expect(try await index.original(sha256: "bb")?.placeholder == original.placeholder)
        // The same bytes stored again (another URL) give a row without one its placeholder, and
        // never take away one it has.
        var again = original
        again.placeholder = nil
        try await index.record(resource: ResourceRecord(url: "https://m/3.png", sha256: "bb", etag: nil, lastModified: nil,
                                                        contentType: nil, fetchedAt: 2, lastAccess: 2),
                               original: again, thumbnails: [])
        #expect(try await index.original(sha256: "bb")?.placeholder == original.placeholder)
        #expect(try await index.files(of: ["bb"])["bb"]?.original?.placeholder == original.placeholder)
        _ = try PhotoIndex(path: path)
    }

    /// Thumbnails made again from a stored original (a new size) give an original stored before
    /// schema 6 its placeholder; one it has stays, and no row is made for an original gone.
    @Test func thumbnailsMadeAgainFillAMissingPlaceholder() async throws {
        let index = try PhotoIndex(path: try await schemaFiveIndex())
        func rethumbnailed(_ sha256: String, _ placeholder: String) async throws {
            try await index.apply([.record(resource: ResourceRecord(url: "https://m/\(sha256).jpg", sha256: sha256, etag: nil,
                                                                   lastModified: nil, contentType: nil, fetchedAt: 3, lastAccess: 3),
                                           original: nil, thumbnails: [], placeholder: placeholder)])
        }
        try await rethumbnailed("aa", "first")
        try await rethumbnailed("aa", "second")
        #expect(try await index.original(sha256: "aa")?.placeholder == "first")
        try await rethumbnailed("zz", "third")
        #expect(try await index.original(sha256: "zz") == nil)
    }
}
