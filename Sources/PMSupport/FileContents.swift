import Foundation

/// Whole files read with open, fstat and read into a buffer the caller keeps: `verify` reads
/// and hashes 100 000 files, and `FileManager.contents` makes a `Data` (and its bookkeeping)
/// for each. Blocking: run it on a `BlockingPool` thread.
public enum FileContents {
    /// Reads the file at `path` into the front of `buffer`, growing it when the file is larger,
    /// and returns the file's length; nil when it cannot be opened or read (missing, a folder).
    public static func read(_ path: String, into buffer: inout [UInt8]) -> Int? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        // One byte more than the length, so a file that grew since fstat is still read to its end.
        var filled = 0
        if buffer.count < Int(info.st_size) + 1 { buffer = [UInt8](repeating: 0, count: Int(info.st_size) + 1) }
        while true {
            if filled == buffer.count { buffer += [UInt8](repeating: 0, count: max(buffer.count, 4096)) }
            let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { return filled }
            filled += got
        }
    }

    /// The bytes of the file at `path`; nil when it cannot be opened or read.
    public static func read(_ path: String) -> [UInt8]? {
        var buffer: [UInt8] = []
        guard let count = read(path, into: &buffer) else { return nil }
        buffer.removeSubrange(count...)
        return buffer
    }
}
