import Foundation
import Synchronization

/// Content-addressed files, whose name is the hash of their bytes: a file already under the
/// name holds the same bytes and is kept. Their bytes go to an unnamed file in the destination
/// folder (`O_TMPFILE`), which is linked under its name once whole: readers see the whole file
/// or none, a process killed at any instant leaves nothing behind, and neither an existence
/// check nor a rename is needed (the link fails with EEXIST instead). On a file system without
/// unnamed files, or where they cannot be linked, the temp name and rename of `write`.
extension AtomicFile {
    /// Creates `path` with `bytes` unless it exists; returns whether it wrote it.
    @discardableResult
    public static func create(_ bytes: some ContiguousBytes, at path: String, sync: Bool = true) throws(FileError) -> Bool {
        try create(bytes, at: path, sync: sync, linking: UnnamedFileLink.current)
    }

    /// `create` with the way unnamed files are linked chosen by the caller (tests).
    static func create(_ bytes: some ContiguousBytes, at path: String, sync: Bool,
                       linking: UnnamedFileLink) throws(FileError) -> Bool {
        if linking != .unavailable {
            let unnamed = open(path.parentFolder, UnnamedFileLink.openFlags, 0o644)
            if unnamed >= 0 {
                defer { close(unnamed) }
                guard writeFully(unnamed, bytes) else { throw FileError(path: path, operation: "write") }
                if sync, fsync(unnamed) != 0 { throw FileError(path: path, operation: "fsync") }
                switch linking.link(unnamed, to: path) {
                case .linked: return true
                case .exists: return false
                case .failed(let code): throw FileError(path: path, operation: "link into place", code: code)
                case .unsupported: break
                }
            } else if !UnnamedFileLink.isUnsupported(errno) {
                throw FileError(path: path.parentFolder, operation: "create a file in")
            }
        }
        if access(path, F_OK) == 0 { return false }
        try write(bytes, to: path, sync: sync)
        return true
    }
}

/// How this process gives an unnamed file its name. `linkat` with `AT_EMPTY_PATH` needs
/// CAP_DAC_READ_SEARCH on kernels before 6.10; the `/proc/self/fd` link works for anyone where
/// /proc is mounted. Found on the first file and kept: both depend on the process, not the file.
enum UnnamedFileLink: UInt8, Sendable {
    case unknown, emptyPath, procPath, unavailable

    enum Outcome: Equatable { case linked, exists, failed(Int32), unsupported }

    private static let learned = Atomic<UInt8>(UnnamedFileLink.unknown.rawValue)

    static var current: UnnamedFileLink { UnnamedFileLink(rawValue: learned.load(ordering: .relaxed)) ?? .unknown }

    /// Linux's `O_TMPFILE`, which Swift's Glibc module does not export: `__O_TMPFILE` (the same
    /// value on x86-64, arm64 and riscv64) with `O_DIRECTORY`; `O_WRONLY` and close-on-exec.
    static let openFlags: Int32 = 0o20000000 | O_DIRECTORY | O_WRONLY | O_CLOEXEC
    private static let emptyPathFlag: Int32 = 0x1000  // AT_EMPTY_PATH, not exported either

    /// Errors of an `O_TMPFILE` open on a kernel or file system without unnamed files.
    static func isUnsupported(_ code: Int32) -> Bool { code == EOPNOTSUPP || code == EISDIR || code == EINVAL }

    func link(_ fd: Int32, to path: String) -> Outcome {
        switch self {
        case .emptyPath: return Self.outcome(linkat(fd, "", AT_FDCWD, path, Self.emptyPathFlag))
        case .procPath: return Self.outcome(linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, AT_SYMLINK_FOLLOW))
        case .unavailable: return .unsupported
        case .unknown:
            for way in [Self.emptyPath, .procPath] {
                let outcome = way.link(fd, to: path)
                // ENOENT, EPERM and EACCES are how a kernel refuses the way itself; EEXIST proves it.
                if case .failed(let code) = outcome, code == ENOENT || code == EPERM || code == EACCES { continue }
                if outcome != .unsupported { Self.learned.store(way.rawValue, ordering: .relaxed) }
                return outcome
            }
            Self.learned.store(Self.unavailable.rawValue, ordering: .relaxed)
            return .unsupported
        }
    }

    private static func outcome(_ status: Int32) -> Outcome {
        if status == 0 { return .linked }
        return errno == EEXIST ? .exists : .failed(errno)
    }
}
