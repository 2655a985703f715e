import CSQLite

/// A sorted set of image hashes that SQL can test rows against (`SQLiteConnection.withMembership`):
/// one statement then filters a table by tens of thousands of hashes that stay in Swift's
/// packed form, 32 bytes each, instead of being copied into a temp table's b-tree.
final class HashMembership {
    private let sorted: [PackedHash]
    /// Where the hashes starting with each value of their first two bytes start in `sorted`
    /// (one more entry ends the last): a lookup searches only those, about one hash for a
    /// plan of 100 000, instead of 17 steps of a binary search that each miss the cache.
    private let starts: [UInt32]

    /// Nil when a hash is not 64 lower-case hex digits: such a hash cannot be matched packed.
    init?(_ hashes: [ImageHash]) {
        var packed: [PackedHash] = []
        packed.reserveCapacity(hashes.count)
        for hash in hashes {
            guard case .packed(let value) = hash else { return nil }
            packed.append(value)
        }
        packed.sort()
        var starts = [UInt32](repeating: 0, count: Self.prefixes + 1)
        for hash in packed { starts[hash.firstTwoBytes + 1] += 1 }
        for prefix in 0..<Self.prefixes { starts[prefix + 1] += starts[prefix] }
        sorted = packed
        self.starts = starts
    }

    private static let prefixes = 1 << 16

    /// Whether the hex text is one of the hashes.
    func contains(hex bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let hash = PackedHash(hex: bytes) else { return false }
        let prefix = hash.firstTwoBytes
        var (low, high) = (Int(starts[prefix]), Int(starts[prefix + 1]))
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < hash { low = middle + 1 } else { high = middle }
        }
        return low < Int(starts[prefix + 1]) && sorted[low] == hash
    }
}

extension SQLiteConnection {
    /// Runs `body` with the SQL function `name(text)` answering 1 for the hashes of `set`, 0 for
    /// any other text or NULL. Only for statements `body` runs through `execute`: a cached
    /// statement naming the function would outlive it.
    func withMembership<T>(named name: String, _ set: HashMembership,
                           _ body: () throws(IndexError) -> T) throws(IndexError) -> T
    {
        let context = Unmanaged.passUnretained(set).toOpaque()
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY
        let rc = sqlite3_create_function_v2(db, name, 1, flags, context, hashMembershipCall, nil, nil, nil)
        guard rc == SQLITE_OK else { throw lastError(rc) }
        defer { sqlite3_create_function_v2(db, name, 1, SQLITE_UTF8, nil, nil, nil, nil, nil) }
        return try withExtendedLifetime(set) { () throws(IndexError) -> T in try body() }
    }
}

private func hashMembershipCall(_ context: OpaquePointer?, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let context, let value = values?[0], let text = sqlite3_value_text(value),
          let user = sqlite3_user_data(context) else {
        sqlite3_result_int(context, 0)
        return
    }
    let set = Unmanaged<HashMembership>.fromOpaque(user).takeUnretainedValue()
    let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
    sqlite3_result_int(context, set.contains(hex: bytes) ? 1 : 0)
}
