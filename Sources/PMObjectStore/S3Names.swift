/// Checks on what goes into a URL or a header before any request is made, so a bad name is
/// reported as such rather than as a confusing signature or routing failure.
public enum S3Names {
    /// S3's rules for new buckets: 3–63 of `a-z 0-9 . -`, starting and ending with a letter or
    /// digit. They also keep the name from adding path, query or host parts to a URL.
    public static func bucketProblem(_ bucket: String) -> String? {
        let bytes = Array(bucket.utf8)
        guard (3...63).contains(bytes.count) else { return "a bucket name has 3 to 63 characters" }
        let isAlphanumeric = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard bytes.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }),
              let first = bytes.first, let last = bytes.last, isAlphanumeric(first), isAlphanumeric(last) else {
            return "a bucket name is lower-case letters, digits, '.' and '-', starting and ending with a letter or digit"
        }
        return nil
    }

    /// S3 keys are 1–1024 bytes of UTF-8.
    static func keyProblem(_ key: String) -> String? {
        (1...1024).contains(key.utf8.count) ? nil : "an object key has 1 to 1024 bytes"
    }

    /// Header values must not carry CR, LF or NUL, which would end the header (or the request) early.
    static func headerValueProblem(_ name: String, _ value: String) -> String? {
        value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) ? "\(name) contains a line break or NUL" : nil
    }

    /// `x-amz-meta-NAME`: NAME must be an HTTP token and the value printable ASCII, which S3
    /// returns unchanged (other bytes come back altered or refused).
    static func metadataProblem(_ name: String, _ value: String) -> String? {
        let tokenPunctuation = Array("!#$%&'*+-.^_`|~".utf8)
        let isToken = !name.isEmpty && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || tokenPunctuation.contains(byte)
        }
        guard isToken else { return "metadata name '\(name)' is not an HTTP token" }
        guard value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            return "metadata '\(name)' has a value that is not printable ASCII"
        }
        return nil
    }
}
