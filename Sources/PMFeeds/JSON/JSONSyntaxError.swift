/// Why and where `JSONReader` stopped. The position is a byte offset into the whole response
/// (JSONP wrapper included), so the line and column match what a reader sees in the file.
struct JSONSyntaxError: Error, Equatable {
    let offset: Int
    let problem: String

    /// `unexpected '}' at line 3, column 5 (byte 41)`. Columns count characters (UTF-8 sequences), not bytes.
    func description(in bytes: [UInt8]) -> String {
        let upTo = bytes.prefix(min(offset, bytes.count))
        let lineStart = (upTo.lastIndex(of: 0x0A)).map { $0 + 1 } ?? 0
        let line = upTo.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = upTo[lineStart...].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return "\(problem) at line \(line), column \(column) (byte \(offset))"
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
