import Foundation
import PhotoMirror

/// `--store s3://BUCKET[/PREFIX]`, else the cache's config.json, else the folder.
enum StoreOption {
    static func resolve(_ arguments: Arguments, cacheRoot: String) throws(UsageError) -> StoreChoice {
        do {
            return try StoreChoice.resolve(explicit: arguments.last(.store), cacheRoot: cacheRoot,
                                           environment: ProcessInfo.processInfo.environment)
        } catch {
            throw UsageError("--store: \(error.description)")
        }
    }
}
