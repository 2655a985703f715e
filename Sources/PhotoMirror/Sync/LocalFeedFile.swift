import Foundation

/// A `file://` feed's bytes, read with open and read so that a failure names the path and the
/// system's reason (errno), not a Foundation error code.
enum LocalFeedFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Blocking, but one read of at most `limit` bytes per local feed, before any download.
    static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "\(path): cannot open the feed (\(reason(errno)))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw Failure(description: "\(path): cannot read the feed (\(reason(errno)))") }
            if got == 0 { return bytes }
            guard bytes.count + got <= limit else {
                throw Failure(description: "\(path): feed is larger than \(limit) bytes")
            }
            bytes += chunk[..<got]
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
