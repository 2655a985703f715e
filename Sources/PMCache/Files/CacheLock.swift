import Foundation
import PMSupport

/// An exclusive `flock` on the cache's lock file, held by writers (sync, prune, verify --repair)
/// for their whole run. The kernel drops it when the process dies, so a killed writer never
/// leaves the cache locked.
public final class CacheLock: Sendable {
    private let fd: Int32

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case busy(path: String, waited: Double)
        case cannotOpen(FileError)
        public var description: String {
            switch self {
            case .busy(let path, let waited):
                "another photomirror process is writing this cache (lock \(path) still held after \(waited) s)"
            case .cannotOpen(let error): "cannot open the cache lock: \(error)"
            }
        }
    }

    /// Takes the lock, retrying every 50 ms for up to `wait` seconds.
    public init(path: String, wait: Double) throws(Failure) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotOpen(FileError(path: path, operation: "open")) }
        let deadline = Date().addingTimeInterval(wait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw .busy(path: path, waited: wait)
            }
            usleep(50_000)
        }
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
