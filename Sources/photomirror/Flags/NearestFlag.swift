/// The flag a mistyped option most likely meant (`--job` → `--jobs`), as git and cargo suggest:
/// the command's own long names within a small edit distance, so a word far from all of them
/// gets no guess rather than a misleading one.
enum NearestFlag {
    static func suggestion(for word: String, among flags: [Flag]) -> String? {
        let typed = String(word.drop { $0 == "-" }.prefix { $0 != "=" })
        guard !typed.isEmpty else { return nil }
        let limit = max(1, min(3, typed.count / 3))
        var best: (name: String, distance: Int)?
        for flag in flags {
            let distance = editDistance(Array(typed), Array(flag.name))
            let prefixed = flag.name.hasPrefix(typed) && typed.count >= 3
            guard distance <= limit || prefixed else { continue }
            if best == nil || distance < best!.distance { best = (flag.name, distance) }
        }
        return best.map { "--\($0.name)" }
    }

    /// Levenshtein distance: insertions, deletions and substitutions each cost one.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[b.count]
    }
}
