/// A command line split into options and operands. Hand-written because no package outside
/// the toolchain can be fetched; it knows only the shapes photomirror uses:
/// `--name value`, `--name=value`, repeatable options, flags, and `--` to end options.
struct Arguments {
    struct Spec {
        var valued: Set<String>
        var flags: Set<String>
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var operands: [String] = []

    init(_ words: [String], spec: Spec) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            guard !optionsEnded, word.hasPrefix("-"), word != "-" else {
                operands.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word.drop { $0 == "-" }.description
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if spec.flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if spec.valued.contains(name) {
                guard let value = inlineValue ?? (index < words.count ? words[index] : nil) else {
                    throw UsageError("--\(name) needs a value")
                }
                if inlineValue == nil { index += 1 }
                values[name, default: []].append(value)
            } else {
                throw UsageError("unknown option \(word)")
            }
        }
    }

    func last(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    func int(_ name: String, range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = last(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return value
    }

    func seconds(_ name: String) throws(UsageError) -> Double? {
        guard let text = last(name) else { return nil }
        guard let value = Double(text), value > 0, value.isFinite else {
            throw UsageError("--\(name) must be a positive number of seconds, not \"\(text)\"")
        }
        return value
    }
}

/// A mistake on the command line: exit code 2 and a pointer to --help.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
