/// AWS's URI encoding (SigV4's `UriEncode`): every byte of the UTF-8 but the unreserved
/// `A-Z a-z 0-9 - . _ ~` becomes `%XX` in upper-case hex. libcurl signs the URL as written, so
/// what is sent must already be in this canonical form.
enum S3Encoding {
    /// An object key in a path: `/` stays, as S3 expects.
    static func path(_ key: String) -> String {
        encode(key, keeping: UInt8(ascii: "/"))
    }

    /// A query name or value: `/` is encoded too.
    static func queryComponent(_ text: String) -> String {
        encode(text, keeping: nil)
    }

    private static func encode(_ text: String, keeping kept: UInt8?) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || byte == kept {
                out.append(byte)
            } else {
                out.append(contentsOf: [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}

/// A query string in SigV4's canonical form, which libcurl signs as written: names and values
/// encoded, pairs sorted, and every flag given a value (`acl=`), else the signature does not match.
struct S3Query: Equatable, ExpressibleByDictionaryLiteral {
    private(set) var parameters: [(name: String, value: String)]

    init(dictionaryLiteral elements: (String, String)...) {
        parameters = elements.map { (name: $0.0, value: $0.1) }
    }

    mutating func add(_ name: String, _ value: String) {
        parameters.append((name: name, value: value))
    }

    /// `a=1&b=x%2Fy`, or "" when there are no parameters.
    var encoded: String {
        parameters.map { (S3Encoding.queryComponent($0.name), S3Encoding.queryComponent($0.value)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    static func == (lhs: S3Query, rhs: S3Query) -> Bool { lhs.encoded == rhs.encoded }
}
