import PMCache

extension CacheCommandError {
    /// `context: error`, except for a damaged index, which every command names the one way
    /// (`IndexError.description`: the file, the next step, then SQLite's words).
    init(_ context: String, _ error: any Error) {
        if let error = error as? IndexError, error.isDamage {
            self.init(description: error.description)
        } else {
            self.init(description: "\(context): \(error)")
        }
    }
}
