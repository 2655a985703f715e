import PMCache
import PMSupport

/// Errors after which no later write to the same cache can succeed (disk full, read-only,
/// permission): the sync stops instead of failing every remaining item one by one.
enum CacheWriteFailure {
    static func endsTheSync(_ error: any Error) -> String? {
        if let error = error as? FileError, error.endsTheSync { return error.description }
        // SQLITE_FULL (13): the index's disk is full; SQLITE_READONLY (8), SQLITE_CANTOPEN (14).
        if let error = error as? IndexError, [13, 8, 14].contains(error.code & 0xff) { return error.description }
        return nil
    }
}
