import PMCache
import PMSupport

/// Errors after which no later write to the same cache can succeed (disk full, read-only,
/// permission): the sync stops instead of failing every remaining item one by one.
enum CacheWriteFailure {
    static func endsTheSync(_ error: any Error) -> String? {
        if let error = error as? FileError, error.endsTheSync { return error.description }
        if let error = error as? StorageError, error.endsTheSync { return error.description }
        if let error = error as? IndexError, error.endsTheSync { return error.description }
        return nil
    }
}
