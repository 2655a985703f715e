/// DeleteObjects' request and answer documents.
enum S3DeleteDocuments {
    /// S3's limit on keys per DeleteObjects request.
    static let maxKeysPerRequest = 1000

    /// `<Delete>` in quiet mode, so the answer lists only the failures. Nil when a key holds a
    /// character XML 1.0 cannot carry (a control character other than tab, LF and CR).
    static func request(keys: [String]) -> [UInt8]? {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"#
            + #"<Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>"#
        for key in keys {
            guard let escaped = escaped(key) else { return nil }
            xml += "<Object><Key>\(escaped)</Key></Object>"
        }
        xml += "</Delete>"
        return Array(xml.utf8)
    }

    /// Text content escaped for XML; tab, LF and CR as character references, which a parser
    /// would otherwise normalise (a CR in a key would reach S3 as a LF).
    static func escaped(_ text: String) -> String? {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                return nil
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The `<Error>` entries of a `<DeleteResult>`, or nil when the body is not one.
    static func failures(_ bytes: [UInt8]) -> [S3DeleteFailure]? {
        guard let root = S3XMLElement.parse(bytes), root.name == "DeleteResult" else { return nil }
        return root.children("Error").map { error in
            S3DeleteFailure(key: error.childText("Key") ?? "", code: trimmed(error.childText("Code") ?? ""),
                            message: trimmed(error.childText("Message") ?? ""))
        }
    }

    /// `keys` in runs of at most `size`.
    static func batches(_ keys: [String], size: Int = maxKeysPerRequest) -> [[String]] {
        stride(from: 0, to: keys.count, by: max(1, size)).map { Array(keys[$0..<min($0 + max(1, size), keys.count)]) }
    }
}
