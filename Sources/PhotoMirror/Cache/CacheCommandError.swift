import Foundation

/// A command on a cache (sync, watch, prune, verify, repair, stats, serve's cache) that could not
/// run or finish: the cache can't be opened, locked, read or written, or the command was
/// interrupted. Either way the index stays consistent; a later run completes the work.
public struct CacheCommandError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case cache, interrupted }
    public let kind: Kind
    public let description: String

    public init(_ kind: Kind = .cache, description: String) {
        self.kind = kind
        self.description = description
    }
}
