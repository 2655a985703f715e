import Foundation

/// Whether writers flush content files before the index names them (`CacheStorage.makeDurable`)
/// and commit the index synchronously. Always, except when the bench measures what that costs:
/// `PHOTOMIRROR_BENCH_NO_DURABILITY=1` turns both off, and nothing else should set it.
public enum Durability {
    public static let enabled = ProcessInfo.processInfo.environment["PHOTOMIRROR_BENCH_NO_DURABILITY"] != "1"
}
