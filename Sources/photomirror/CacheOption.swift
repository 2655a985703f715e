import Foundation
import PMCache

/// The cache folder a command works on: `--cache DIR` or the XDG default.
enum CacheOption {
    static func resolve(_ arguments: Arguments) throws(UsageError) -> String {
        guard let root = CacheRoot.resolve(explicit: arguments.last(.cache),
                                           environment: ProcessInfo.processInfo.environment)
        else { throw UsageError("no cache folder: pass --cache DIR or set PHOTOMIRROR_CACHE") }
        return URL(fileURLWithPath: root).standardizedFileURL.path
    }
}
