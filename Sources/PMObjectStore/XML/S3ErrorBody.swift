/// S3's error document: `<Error><Code>NoSuchKey</Code><Message>…</Message>…</Error>`.
struct S3ErrorBody: Equatable {
    var code: String?
    var message: String?

    /// Nil when the body is not an S3 error document (an HTML page from a proxy, say).
    static func parse(_ bytes: [UInt8]) -> S3ErrorBody? {
        guard let root = S3XMLElement.parse(bytes), root.name == "Error" else { return nil }
        return S3ErrorBody(code: root.childText("Code").map(trimmed), message: root.childText("Message").map(trimmed))
    }
}

func trimmed(_ text: String) -> String {
    String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
}
