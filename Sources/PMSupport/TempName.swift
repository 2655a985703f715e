import Foundation
import Synchronization

/// Names for temp files: the process's random token and a counter, unique across the writers
/// that share a folder, with no random bytes drawn (a system call) per file as UUID does.
enum TempName {
    private static let token: String = {
        var generator = SystemRandomNumberGenerator()
        let high = String(generator.next(), radix: 16)
        return String(repeating: "0", count: 16 - high.count) + high
    }()
    private static let counter = Atomic<UInt64>(0)

    /// The next temp file name (no folder), starting with `AtomicFile.tempPrefix`.
    static func next() -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return AtomicFile.tempPrefix + token + "-" + String(number, radix: 16)
    }
}

extension String {
    /// The folder part of a path: everything before the last `/` ("." when there is none, "/"
    /// for a file at the root). A byte search; Foundation's NSString path methods normalise
    /// the whole path first.
    package var parentFolder: String {
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        if slash == utf8.startIndex { return "/" }
        return String(self[..<slash])
    }
}
