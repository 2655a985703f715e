import PMCache

/// Whether a cache's index can be used, as `verify` and `verify --repair` find it: there and
/// passing SQLite's own check (`quick_check`, or `integrity_check` when `deep`), damaged (not a
/// database, or a page SQLite rejects), or lost (no file, though the cache's files are there).
enum IndexHealth: Sendable {
    /// Open read-only: nothing was written to it.
    case healthy(PhotoIndex)
    /// SQLite's words.
    case damaged(String)
    case missing

    static func check(_ layout: CacheLayout, deep: Bool) async throws(CacheCommandError) -> IndexHealth {
        switch IndexPresence(layout) {
        case .none, .unstarted: throw CacheCommandError(description: IndexPresence.noCacheMessage(layout))
        case .lost: return .missing
        case .damaged(let error): return .damaged(error.message)
        case .present: break
        }
        let index: PhotoIndex
        do {
            index = try PhotoIndex(readingOnly: layout.indexPath)
        } catch where error.isDamage {
            return .damaged(error.message)
        } catch {
            throw CacheCommandError("cannot open the cache index", error)
        }
        do {
            let problems = try await index.integrityProblems(deep: deep)
            return problems.isEmpty ? .healthy(index) : .damaged(problems.joined(separator: "; "))
        } catch where error.isDamage {
            return .damaged(error.message)
        } catch {
            throw CacheCommandError("cannot check the cache index", error)
        }
    }

    /// The line `verify` prints for an index that must be rebuilt: the file, what is wrong, the next step.
    var damageLine: String? {
        switch self {
        case .healthy: nil
        case .damaged(let reason): Self.damagedLine(reason)
        case .missing:
            "\(CacheLayout.indexFile): missing, though the cache's files are here (originals/, thumbs/, feeds/); "
                + "run `photomirror verify --repair` to rebuild it from them"
        }
    }

    static func damagedLine(_ reason: String) -> String {
        "\(CacheLayout.indexFile): damaged (\(reason)); run `photomirror verify --repair` to rebuild it "
            + "from the manifests and the cache's files"
    }
}
