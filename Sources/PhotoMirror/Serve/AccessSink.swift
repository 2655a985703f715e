import PMCache

/// Where batches of served files go: the index (`IndexAccessWriter`), or a fake in tests.
/// Called on the flusher's own thread, never on a request's.
public protocol AccessSink: Sendable {
    func write(_ accesses: [AccessedFile: Double]) -> AccessWriteOutcome
}

extension IndexAccessWriter: AccessSink {}
