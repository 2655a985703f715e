import Foundation

/// Damages an SQLite file the way a failing disk or a stray write does: whole pages overwritten
/// with random bytes. Reads the header itself (the tests link no module of the package).
enum IndexPages {
    /// Overwrites `count` pages picked at random among those in use (every page but the header's
    /// and the free list's, whose bytes no reader looks at), and page 1 too when `header`.
    /// Returns the page numbers, for failure messages.
    static func overwrite(_ file: URL, count: Int, header: Bool) throws -> [Int] {
        let bytes = [UInt8](try Data(contentsOf: file))
        func word(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let declared = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = declared == 1 ? 65_536 : declared
        var free = Set<Int>()
        var trunk = word(32)
        while trunk > 0, !free.contains(trunk) {
            free.insert(trunk)
            let start = (trunk - 1) * pageSize
            for index in 0..<word(start + 4) { free.insert(word(start + 8 + 4 * index)) }
            trunk = word(start)
        }
        let used = (2...(bytes.count / pageSize)).filter { !free.contains($0) }
        var generator = SystemRandomNumberGenerator()
        let chosen = Array(used.shuffled(using: &generator).prefix(count)) + (header ? [1] : [])
        let handle = try FileHandle(forUpdating: file)
        defer { try? handle.close() }
        for page in chosen {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            try handle.write(contentsOf: Data((0..<pageSize).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        }
        return chosen.sorted()
    }
}
