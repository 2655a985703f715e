import Foundation
import PMCache
import PMImaging
import PhotoMirror

/// A command line split into options and operands, against the command's flag definitions.
/// Hand-written because no package outside the toolchain can be fetched; it knows only the
/// shapes photomirror uses: `--name value`, `--name=value`, `-o value`, repeatable options,
/// toggles, and `--` to end options. Every value is checked against its flag's kind here.
struct Arguments {
    private let flags: [String: Flag]
    private(set) var values: [String: [String]] = [:]
    private(set) var toggles: Set<String> = []
    private(set) var operands: [String] = []

    init(_ words: [String], flags definitions: [Flag]) throws(UsageError) {
        var byName: [String: Flag] = [:]
        for flag in definitions {
            byName[flag.name] = flag
            if let short = flag.short { byName[String(short)] = flag }
        }
        flags = byName
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
            guard let flag = byName[name] else {
                let guess = NearestFlag.suggestion(for: word, among: definitions).map { "; did you mean \($0)?" } ?? ""
                throw UsageError("unknown option \(word)\(guess)")
            }
            guard flag.takesValue else {
                guard inlineValue == nil else { throw UsageError("--\(flag.name) takes no value") }
                toggles.insert(flag.name)
                continue
            }
            guard let value = inlineValue ?? (index < words.count ? words[index] : nil) else {
                throw UsageError("--\(flag.name) needs a value")
            }
            if inlineValue == nil { index += 1 }
            try Self.check(value, for: flag)
            if !flag.repeatable { values[flag.name] = [] }
            values[flag.name, default: []].append(value)
        }
    }

    func last(_ flag: Flag) -> String? { values[flag.name]?.last }
    func all(_ flag: Flag) -> [String] { values[flag.name] ?? [] }
    func has(_ flag: Flag) -> Bool { toggles.contains(flag.name) }

    func int(_ flag: Flag) -> Int? { last(flag).flatMap { Int($0) } }
    func seconds(_ flag: Flag) -> Double? { last(flag).flatMap { Double($0) } }
    func number(_ flag: Flag) -> Double? { last(flag).flatMap { Double($0) } }
    func byteSize(_ flag: Flag) -> Int? { last(flag).flatMap { try? ByteSize.parse($0) } }
    func duration(_ flag: Flag) -> Double? { last(flag).flatMap { try? AgeLimit.parse($0) } }
    func since(_ flag: Flag) -> Double? { last(flag).flatMap { try? ItemSelection.since($0, now: Date()) } }
    func thumbnailSizes(_ flag: Flag) -> [ThumbnailSize] { all(flag).compactMap { ThumbnailSize(parsing: $0) } }
    func pixelSize(_ flag: Flag) -> PixelSize? { last(flag).flatMap { try? PixelSize.parse($0) } }

    private static func check(_ value: String, for flag: Flag) throws(UsageError) {
        let name = "--\(flag.name)"
        switch flag.kind {
        case .toggle, .text, .file, .directory:
            return
        case .headerText:
            guard !value.isEmpty, value.utf8.count <= 512,
                  value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw UsageError("\(name) must be 1–512 bytes of text without control characters")
            }
        case .integer(let range):
            guard let number = Int(value), range.contains(number) else {
                throw UsageError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(value)\"")
            }
        case .seconds:
            guard let seconds = Double(value), seconds > 0, seconds.isFinite else {
                throw UsageError("\(name) must be a positive number of seconds, not \"\(value)\"")
            }
        case .positiveNumber:
            guard let number = Double(value), number > 0, number.isFinite else {
                throw UsageError("\(name) must be a positive number such as 0.5 or 10, not \"\(value)\"")
            }
        case .secondsOrZero:
            guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
                throw UsageError("\(name) must be seconds ≥ 0, not \"\(value)\"")
            }
        case .byteSize:
            do { _ = try ByteSize.parse(value) } catch { throw UsageError("\(name): \(error.description)") }
        case .duration:
            do { _ = try AgeLimit.parse(value) } catch { throw UsageError("\(name): \(error.description)") }
        case .since:
            do { _ = try ItemSelection.since(value, now: Date()) } catch { throw UsageError("\(name): \(error.description)") }
        case .thumbnailSize:
            guard ThumbnailSize(parsing: value) != nil else {
                throw UsageError("\(name) must look like 40x40 (1–\(ThumbnailSize.maxSide) each side), not \"\(value)\"")
            }
        case .pixelSize:
            do { _ = try PixelSize.parse(value) } catch { throw UsageError("\(name): \(error.description)") }
        case .choice(let choices):
            guard choices.contains(value) else {
                throw UsageError("\(name) must be one of \(choices.joined(separator: ", ")), not \"\(value)\"")
            }
        }
    }
}

/// A mistake on the command line: exit code 2 and a pointer to the help of the command it was
/// made in (`photomirror help sync`), else to the overview.
struct UsageError: Error {
    let message: String
    var command: String?
    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
