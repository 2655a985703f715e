import Foundation

/// A file written in pieces and published whole: the pieces go to a temp file beside `path`,
/// `commit` flushes it to disk and renames it over `path`. Until then readers see the old file
/// (or none); a writer dropped without `commit` removes its temp file, and one killed leaves a
/// `.tmp-` file that `verify` reports as garbage.
///
/// For outputs too large to build in memory first, such as the manifest of a 100 000-item feed.
public final class AtomicFileWriter {
    public let path: String
    private let tempPath: String
    private var fd: Int32

    public init(path: String) throws(FileError) {
        self.path = path
        let folder = path.parentFolder + "/"
        // A name left by a killed process with the same token is skipped, never reused.
        var attempt = (path: folder + TempName.next(), fd: Int32(-1))
        for _ in 0..<8 {
            attempt.fd = open(attempt.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if attempt.fd >= 0 || errno != EEXIST { break }
            attempt.path = folder + TempName.next()
        }
        (tempPath, fd) = attempt
        guard fd >= 0 else { throw FileError(path: tempPath, operation: "create") }
    }

    deinit {
        guard fd >= 0 else { return }
        close(fd)
        unlink(tempPath)
    }

    public func append(_ bytes: some ContiguousBytes) throws(FileError) {
        precondition(fd >= 0, "append after commit")
        guard AtomicFile.writeFully(fd, bytes) else { throw FileError(path: path, operation: "write") }
    }

    /// Flushes the bytes to disk (unless `sync` is false) and renames the file into place.
    public func commit(sync: Bool = true) throws(FileError) {
        precondition(fd >= 0, "commit twice")
        var failure: FileError?
        if sync, fsync(fd) != 0 { failure = FileError(path: path, operation: "fsync") }
        close(fd)
        fd = -1
        if failure == nil, rename(tempPath, path) != 0 { failure = FileError(path: path, operation: "rename into") }
        if let failure {
            unlink(tempPath)
            throw failure
        }
    }
}
