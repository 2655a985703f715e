import Foundation
import PhotoMirror

/// `--store s3://BUCKET[/PREFIX]`, else the store the cache's config.json records, else the
/// folder; a `--store` that is not where the cache's files are is refused (`StoreDecision`).
enum StoreOption {
    /// `records` for a sync (sync, watch): the first `--store` is to be recorded, and
    /// `--move-store` may move the cache.
    static func resolve(_ arguments: Arguments, cacheRoot: String, records: Bool = false,
                        move: Bool = false) async throws(UsageError) -> StoreSetting.Resolution {
        do {
            return try await StoreSetting.resolve(given: arguments.last(.store), move: move, records: records,
                                            cacheRoot: cacheRoot, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// The store of a command that does not sync (verify, prune, stats).
    static func choice(_ arguments: Arguments, cacheRoot: String) async throws(UsageError) -> StoreChoice {
        try await resolve(arguments, cacheRoot: cacheRoot).choice
    }
}

extension StoreOption {
    /// Before a sync writes anything: moves the cache (`--move-store`) or records its first store.
    /// Returns the exit code when that failed, having said why.
    static func settle(_ store: StoreSetting.Resolution, cacheRoot: String, quiet: Bool) async -> ExitCode? {
        do throws(CacheCommandError) {
            if let from = store.moveFrom {
                let copied = try await StoreMove(cacheRoot: cacheRoot, from: from, to: store.choice).run()
                if !quiet { Output.err("moved the cache from \(from.description) to \(store.choice.description): copied \(counted(copied, "file"))\n") }
            } else if let record = store.record {
                try StoreSetting.record(record, cacheRoot: cacheRoot)
            }
            return nil
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
    }
}
