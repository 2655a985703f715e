import Foundation

/// A `Range` request header against a file of known size (RFC 9110 §14): one range is served
/// as 206; several, or a header that doesn't parse, are ignored (the whole file, 200), as the
/// RFC allows; a range past the end is 416.
public enum ByteRange: Equatable, Sendable {
    case whole
    case part(offset: Int, length: Int)
    case unsatisfiable

    public static func parse(_ header: String?, size: Int) -> ByteRange {
        guard let header = header?.trimmingCharacters(in: .whitespaces) else { return .whole }
        let unit = "bytes="
        guard header.lowercased().hasPrefix(unit) else { return .whole }
        let spec = header.dropFirst(unit.count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            guard let suffix = digits(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            let length = min(suffix, size)
            return .part(offset: size - length, length: length)
        }
        guard let start = digits(first) else { return .whole }
        var end = size - 1
        if !last.isEmpty {
            guard let stated = digits(last), stated >= start else { return .whole }
            end = min(stated, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .part(offset: start, length: end - start + 1)
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
