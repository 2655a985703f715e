import PMCache

/// `--max SIZE` and `--max-age DURATION`, shared by `prune` and `sync`.
extension Arguments {
    func byteSize(_ name: String) throws(UsageError) -> Int? {
        guard let text = last(name) else { return nil }
        do {
            return try ByteSize.parse(text)
        } catch {
            throw UsageError("--\(name): \(error.description)")
        }
    }

    func age(_ name: String) throws(UsageError) -> Double? {
        guard let text = last(name) else { return nil }
        do {
            return try AgeLimit.parse(text)
        } catch {
            throw UsageError("--\(name): \(error.description)")
        }
    }

    func lockWait() throws(UsageError) -> Double? {
        guard let text = last("wait") else { return nil }
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else { throw UsageError("--wait must be seconds ≥ 0") }
        return seconds
    }
}
