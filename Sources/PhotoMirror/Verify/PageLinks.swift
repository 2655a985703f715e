import Foundation

/// The links an HTML page of the gallery makes into the cache: `src`, `href` and every
/// candidate of a `srcset`, percent-decoded. Links with a scheme (`https:`), protocol-relative
/// ones and fragments point outside the cache and are left out. Pure.
enum PageLinks {
    static func relative(in html: String) -> [String] {
        relative(in: Array(html.utf8))
    }

    /// One pass over the page's bytes: a 10 000-item feed has 50 pages of 200 items, and
    /// `verify` reads every one of them.
    static func relative(in html: [UInt8]) -> [String] {
        let values = attributeValues(in: html)
        var links: [String] = []
        for value in values.src + values.href where isCacheRelative(value) {
            links.append(value)
        }
        for value in values.srcset {
            for candidate in value.utf8.split(separator: UInt8(ascii: ",")) {
                let url = candidate.split(separator: UInt8(ascii: " ")).first.map { String(Substring($0)) } ?? ""
                if isCacheRelative(url) { links.append(url) }
            }
        }
        return links.map { $0.utf8.contains(UInt8(ascii: "%")) ? $0.removingPercentEncoding ?? $0 : $0 }
    }

    /// Whether `link` is relative to the cache: not empty, no scheme before its path, not rooted,
    /// not only a query or a fragment. Bytes, not Characters: `verify` asks it of every link of
    /// every page and JSON Feed.
    static func isCacheRelative(_ link: String) -> Bool {
        var link = link
        return link.withUTF8 { bytes in
            guard let first = bytes.first, first != UInt8(ascii: "#"), first != UInt8(ascii: "/"),
                  first != UInt8(ascii: "?") else { return false }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return true
                case UInt8(ascii: ":"): return false
                default: continue
                }
            }
            return true
        }
    }

    /// Values of double-quoted `src`, `href` and `srcset` attributes (the gallery quotes every
    /// attribute): each `="` whose name before it, after a space, is one of the three, up to the
    /// next quote. Each name is matched as a search for ` name="` from the end of its own last
    /// value would match it.
    private static func attributeValues(in bytes: [UInt8]) -> (src: [String], href: [String], srcset: [String]) {
        var values: (src: [String], href: [String], srcset: [String]) = ([], [], [])
        var resume = (src: 0, href: 0, srcset: 0)
        let quote = UInt8(ascii: "\""), equals = UInt8(ascii: "=")
        bytes.withUnsafeBufferPointer { bytes in
            var index = 1
            while index < bytes.count {
                guard bytes[index] == quote, bytes[index - 1] == equals else {
                    index += 1
                    continue
                }
                let nameEnd = index - 1, valueStart = index + 1
                func named(_ name: StaticString) -> Int? {
                    let start = nameEnd - name.utf8CodeUnitCount - 1
                    guard start >= 0, bytes[start] == UInt8(ascii: " ") else { return nil }
                    for offset in 0..<name.utf8CodeUnitCount where bytes[start + 1 + offset] != name.utf8Start[offset] {
                        return nil
                    }
                    return start
                }
                func value() -> (String, next: Int)? {
                    guard let end = bytes[valueStart...].firstIndex(of: quote) else { return nil }
                    return (String(decoding: bytes[valueStart..<end], as: UTF8.self), end + 1)
                }
                if let start = named("src"), start >= resume.src {
                    guard let (text, next) = value() else { break }
                    values.src.append(text)
                    resume.src = next
                } else if let start = named("href"), start >= resume.href {
                    guard let (text, next) = value() else { break }
                    values.href.append(text)
                    resume.href = next
                } else if let start = named("srcset"), start >= resume.srcset {
                    guard let (text, next) = value() else { break }
                    values.srcset.append(text)
                    resume.srcset = next
                }
                index += 1
            }
        }
        return values
    }
}
