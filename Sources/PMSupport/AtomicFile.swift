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
        let directory = (path as NSString).deletingLastPathComponent
        let tempPath = directory + "/" + tempPrefix + UUID().uuidString
        let fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: tempPath, operation: "create") }
        var failure: FileError?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = FileError(path: path, operation: "write")
                    return
                }
                offset += written
            }
        }
        if failure == nil, sync, fsync(fd) != 0 { failure = FileError(path: path, operation: "fsync") }
        close(fd)
        if failure == nil, rename(tempPath, path) != 0 { failure = FileError(path: path, operation: "rename into") }
        if let failure {
            unlink(tempPath)
            throw failure
        }
    }

    /// Creates `path` and its parents (mode 0755); existing folders are fine.
    public static func makeDirectories(_ path: String) throws(FileError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            let code = (error as NSError).userInfo[NSUnderlyingErrorKey].flatMap { ($0 as? NSError)?.code }
            throw FileError(path: path, operation: "create folder", code: Int32(code ?? Int(EACCES)))
        }
    }
}
