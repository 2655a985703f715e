import Foundation

/// The links an HTML page of the gallery makes into the cache: `src`, `href` and every
/// candidate of a `srcset`, percent-decoded. Links with a scheme (`https:`), protocol-relative
/// ones and fragments point outside the cache and are left out. Pure.
enum PageLinks {
    static func relative(in html: String) -> [String] {
        var links: [String] = []
        for value in attributeValues(in: html, names: ["src", "href"]) where isCacheRelative(value) {
            links.append(value)
        }
        for value in attributeValues(in: html, names: ["srcset"]) {
            for candidate in value.split(separator: ",") {
                let url = candidate.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init) ?? ""
                if isCacheRelative(url) { links.append(url) }
            }
        }
        return links.map { $0.removingPercentEncoding ?? $0 }
    }

    static func isCacheRelative(_ link: String) -> Bool {
        guard let first = link.first, first != "#", first != "/", first != "?" else { return false }
        let beforePath = link.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !beforePath.contains(":")
    }

    /// Values of double-quoted attributes with these names (the gallery quotes every attribute).
    private static func attributeValues(in html: String, names: [String]) -> [String] {
        var values: [String] = []
        let bytes = Array(html.utf8)
        for name in names {
            let needle = Array(" \(name)=\"".utf8)
            var index = 0
            while let start = find(needle, in: bytes, from: index) {
                let valueStart = start + needle.count
                guard let end = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { break }
                values.append(String(decoding: bytes[valueStart..<end], as: UTF8.self))
                index = end + 1
            }
        }
        return values
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
