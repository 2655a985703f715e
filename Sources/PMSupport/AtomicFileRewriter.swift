import Foundation

/// A file written in pieces, like `AtomicFileWriter`, that replaces the old file only when its
/// bytes differ: an unchanged file keeps its inode and modification time, so a web server's
/// validators (ETag, Last-Modified) stay and polling clients get 304s. This is
/// `AtomicFile.writeIfChanged` for documents too large to hold whole.
///
/// The pieces are compared with the old file as they come. A temp file is started only at the
/// first difference, with the equal prefix copied from the old file, so a document that did
/// not change is read once and never written.
public final class AtomicFileRewriter {
    public let path: String
    /// The current file, read along with the pieces; -1 when there is none or once they differ.
    private var old: Int32
    /// How many bytes of the pieces so far equal the current file's start.
    private var matched = 0
    private var writer: AtomicFileWriter?

    public init(path: String) {
        self.path = path
        old = open(path, O_RDONLY | O_CLOEXEC)
    }

    deinit {
        if old >= 0 { close(old) }
    }

    public func append(_ bytes: [UInt8]) throws(FileError) {
        if writer == nil {
            if old >= 0, oldContinues(with: bytes) {
                matched += bytes.count
                return
            }
            try startWriting()
        }
        try writer?.append(bytes)
    }

    /// Puts the new bytes in place (flushed, then renamed) unless the file already holds them.
    /// Returns whether it wrote.
    @discardableResult
    public func commit() throws(FileError) -> Bool {
        if writer == nil {
            if old >= 0, oldIsAtEnd() {
                close(old)
                old = -1
                return false
            }
            try startWriting()
        }
        try writer?.commit()
        return true
    }

    /// Reads the old file's next `bytes.count` bytes and compares; false on any short read.
    private func oldContinues(with bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        var current = [UInt8](repeating: 0, count: bytes.count)
        return read(into: &current) == bytes.count && current == bytes
    }

    private func oldIsAtEnd() -> Bool {
        var probe = [UInt8](repeating: 0, count: 1)
        return read(into: &probe) == 0
    }

    /// Fills `buffer` from the old file's position; the count read (less only at its end), or -1.
    private func read(into buffer: inout [UInt8]) -> Int {
        var filled = 0
        while filled < buffer.count {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(old, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return got < 0 ? -1 : filled }
            filled += got
        }
        return filled
    }

    /// The pieces differ from the old file (or there is none): a temp file that starts with the
    /// prefix they shared.
    private func startWriting() throws(FileError) {
        let writer = try AtomicFileWriter(path: path)
        var buffer = [UInt8](repeating: 0, count: min(max(matched, 1), 1 << 16))
        var offset = 0
        while offset < matched {
            let want = min(buffer.count, matched - offset)
            let got = buffer.withUnsafeMutableBytes { pread(old, $0.baseAddress!, want, off_t(offset)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw FileError(path: path, operation: "read back", code: got < 0 ? errno : EIO) }
            try writer.append(Array(buffer[0..<got]))
            offset += got
        }
        if old >= 0 { close(old) }
        old = -1
        self.writer = writer
    }
}
