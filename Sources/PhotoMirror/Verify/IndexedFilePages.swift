import PMCache

extension PhotoIndex {
    /// Rows read per page: enough that the reads cost nothing next to the files' checks, few
    /// enough that two pages are a megabyte, whatever the size of the cache.
    static let filesPerPage = 4096

    /// Calls `body` with every file row, a page at a time; the next page is read while `body`
    /// works on the current one.
    nonisolated func forEachFilePage(_ body: ([IndexedFile]) async throws -> Void) async throws {
        var page = try await indexedFiles(after: .start, limit: Self.filesPerPage)
        while !page.files.isEmpty {
            guard let cursor = page.next else { return try await body(page.files) }
            async let upcoming = indexedFiles(after: cursor, limit: Self.filesPerPage)
            try await body(page.files)
            page = try await upcoming
        }
    }
}

extension IndexedFile {
    /// Whether the file is one a storage listing counts as content (`DiskScan.contentFileCount`),
    /// under its own table's folder: each such row found in the storage matches one content file,
    /// as the tables' paths are unique.
    var isContentFile: Bool {
        guard path.isOriginal == (role == .original) else { return false }
        if case .text(let text) = path { return !DiskScan.isTemp(text) }
        return true
    }
}

/// What checking the indexed files found.
struct FileCheckResult: Sendable {
    /// Files the index names that are missing or wrong, with why, sorted by path.
    var failures: [(file: IndexedFile, problem: String)] = []
    /// Rows checked.
    var files = 0
    /// Content files (`IndexedFile.isContentFile`) found in the storage: when the storage holds
    /// as many, none of its content files is an orphan.
    var contentFilesFound = 0

    mutating func add(_ other: FileCheckResult) {
        failures += other.failures
        files += other.files
        contentFilesFound += other.contentFilesFound
    }
}
