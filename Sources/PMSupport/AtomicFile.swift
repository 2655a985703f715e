import Foundation

/// Errors from the file system, naming the path and the cause (errno text).
public struct FileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let operation: String
    public let code: Int32

    public init(path: String, operation: String, code: Int32 = errno) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    public var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }
    /// Errors that no later write to the same cache will escape: stop instead of failing every item.
    public var endsTheSync: Bool { isNoSpace || code == EACCES || code == EPERM || code == EROFS }
}

/// Crash-safe file writes: bytes go to a temp file in the destination's folder, are flushed to
/// disk, then renamed over the final name. A reader (or a process killed at any instant) sees
/// either no file or the whole file, never a partial one under the final name.
public enum AtomicFile {
    /// Prefix of temp files; `verify` treats files with it as garbage a killed writer left.
    public static let tempPrefix = ".tmp-"

    public static func write(_ bytes: some ContiguousBytes, to path: String, sync: Bool = true) throws(FileError) {
        let writer = try AtomicFileWriter(path: path)
        try writer.append(bytes)
        try writer.commit(sync: sync)
    }

    /// Writes like `write`, but only when `bytes` differ from the file's current content. An
    /// unchanged page then keeps its modification time, so a web server's validators (ETag,
    /// Last-Modified) stay the same and clients revalidate with a 304. Returns whether it wrote.
    @discardableResult
    public static func writeIfChanged(_ bytes: [UInt8], to path: String) throws(FileError) -> Bool {
        if hasContent(bytes, at: path) { return false }
        try write(bytes, to: path)
        return true
    }

    /// Whether the file at `path` holds exactly `bytes`; false when it can't be read.
    private static func hasContent(_ bytes: [UInt8], at path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size == bytes.count else { return false }
        var current = [UInt8](repeating: 0, count: bytes.count + 1)
        var filled = 0
        while filled < current.count {
            let got = current.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return filled == bytes.count && current[..<filled].elementsEqual(bytes)
    }

    /// Writes all of `bytes` to `fd`, through short writes and EINTR; false on an error (errno).
    static func writeFully(_ fd: Int32, _ bytes: some ContiguousBytes) -> Bool {
        bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                // No progress and no error: reported as an I/O error, not retried without end.
                if written == 0 {
                    errno = EIO
                    return false
                }
                offset += written
            }
            return true
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates `path` and its parents (mode 0755); existing folders are fine.
    public static func makeDirectories(_ path: String) throws(FileError) {
        // Nearly always only the last folder is missing (a fan-out folder such as
        // `originals/ab`): one mkdir instead of Foundation walking every component.
        if mkdir(path, 0o755) == 0 || (errno == EEXIST && isFolder(path)) { return }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            let code = (error as NSError).userInfo[NSUnderlyingErrorKey].flatMap { ($0 as? NSError)?.code }
            throw FileError(path: path, operation: "create folder", code: Int32(code ?? Int(EACCES)))
        }
    }
}
