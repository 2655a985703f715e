/// `--user-agent TEXT`, shared by `sync` and `feed`.
extension Arguments {
    /// The text as given; refused when it could break the request (control characters would
    /// end the header line early) or is empty or overlong.
    func userAgent() throws(UsageError) -> String? {
        guard let text = last("user-agent") else { return nil }
        guard !text.isEmpty, text.utf8.count <= 512,
              text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw UsageError("--user-agent must be 1–512 bytes of text without control characters")
        }
        return text
    }
}
