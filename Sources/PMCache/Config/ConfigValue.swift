import Foundation

/// A setting's value as JSON gives it; anything else fails the decode.
enum ConfigValue: Decodable {
    case null, text(String), integer(Int), number(Double), list([ConfigValue]), other

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if (try? value.decode(Bool.self)) != nil {
            // Before the numbers: a Foundation decoder may read `true` as 1.
            self = .other
        } else if let text = try? value.decode(String.self) {
            self = .text(text)
        } else if let number = try? value.decode(Int.self) {
            self = .integer(number)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else if let list = try? value.decode([ConfigValue].self) {
            self = .list(list)
        } else {
            self = .other
        }
    }
}

/// A config file's settings, each read as its key's kind; a wrong one is an error naming the key
/// and what it should look like. A missing key or `null` is nil.
struct ConfigValues {
    private let settings: [String: ConfigValue]

    init(_ settings: [String: ConfigValue]) { self.settings = settings }

    private func given(_ key: String) -> ConfigValue? {
        switch settings[key] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    func text(_ key: String, example: String) throws(CacheConfig.LoadError) -> String? {
        guard let value = given(key) else { return nil }
        guard case .text(let text) = value, !text.isEmpty else { throw mistake(key, "text such as \(example)") }
        return text
    }

    func byteSize(_ key: String) throws(CacheConfig.LoadError) -> Int? {
        switch given(key) {
        case nil: return nil
        case .text(let text)?:
            do { return try ByteSize.parse(text) } catch { throw CacheConfig.LoadError(description: "\(key): \(error.description)") }
        case .integer(let bytes)? where bytes > 0: return bytes
        default: throw mistake(key, "a size such as \"500MB\" or a whole number of bytes")
        }
    }

    func pixelSize(_ key: String) throws(CacheConfig.LoadError) -> PixelSize? {
        switch given(key) {
        case nil: return nil
        case .text(let text)?:
            do { return try PixelSize.parse(text) } catch { throw CacheConfig.LoadError(description: "\(key): \(error.description)") }
        default: throw mistake(key, "a size in pixels such as \"32x32\"")
        }
    }

    func duration(_ key: String) throws(CacheConfig.LoadError) -> Double? {
        switch given(key) {
        case nil: return nil
        case .text(let text)?:
            do { return try AgeLimit.parse(text) } catch { throw CacheConfig.LoadError(description: "\(key): \(error.description)") }
        default: throw mistake(key, "a duration such as \"30d\" or \"12h\"")
        }
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(CacheConfig.LoadError) -> Int? {
        guard let value = given(key) else { return nil }
        guard case .integer(let number) = value, range.contains(number) else {
            throw mistake(key, "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func positiveNumber(_ key: String) throws(CacheConfig.LoadError) -> Double? {
        switch given(key) {
        case nil: return nil
        case .integer(let number)? where number > 0: return Double(number)
        case .number(let number)? where number > 0 && number.isFinite: return number
        default: throw mistake(key, "a positive number such as 0.5 or 10")
        }
    }

    /// As an HTTP header carries it: 1–512 bytes without control characters.
    func headerText(_ key: String) throws(CacheConfig.LoadError) -> String? {
        guard let value = given(key) else { return nil }
        guard case .text(let text) = value, !text.isEmpty, text.utf8.count <= 512,
              text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw mistake(key, "1–512 bytes of text without control characters")
        }
        return text
    }

    /// `["120x80", "40x40"]` or one `"120x80"`. The sides' upper bound is the imaging's to check.
    func sizes(_ key: String) throws(CacheConfig.LoadError) -> [String]? {
        let wrong = mistake(key, "a list of sizes such as [\"120x80\", \"40x40\"]")
        let texts: [String]
        switch given(key) {
        case nil: return nil
        case .text(let text)?: texts = [text]
        case .list(let list)? where !list.isEmpty:
            texts = try list.map { value throws(CacheConfig.LoadError) in
                guard case .text(let text) = value else { throw wrong }
                return text
            }
        default: throw wrong
        }
        for text in texts {
            let sides = text.split(separator: "x", omittingEmptySubsequences: false)
            guard sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && (Int($0) ?? 0) > 0 }) else {
                throw CacheConfig.LoadError(description: "\(key): \"\(text)\" is not a size such as \"120x80\"")
            }
        }
        return texts
    }

    /// One of `choices`, as written (`"webp"`).
    func choice(_ key: String, from choices: [String]) throws(CacheConfig.LoadError) -> String? {
        guard let value = given(key) else { return nil }
        guard case .text(let text) = value, choices.contains(text) else {
            throw mistake(key, "one of " + choices.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return text
    }

    /// `[1, 2, 3]` or `"1,2,3"`: whole numbers from 1.
    func scales(_ key: String) throws(CacheConfig.LoadError) -> [Int]? {
        let wrong = mistake(key, "a list of whole numbers from 1 such as [1, 2, 3]")
        let numbers: [Int?]
        switch given(key) {
        case nil: return nil
        case .text(let text)?: numbers = text.split(separator: ",").map { Int($0.trimmingWhitespace()) }
        case .list(let list)?:
            numbers = list.map { value in
                if case .integer(let number) = value { return number }
                return nil
            }
        default: throw wrong
        }
        guard !numbers.isEmpty, numbers.allSatisfy({ ($0 ?? 0) >= 1 }) else { throw wrong }
        return numbers.compactMap { $0 }
    }

    private func mistake(_ key: String, _ expected: String) -> CacheConfig.LoadError {
        CacheConfig.LoadError(description: "\(key) must be \(expected)")
    }
}
