extension JSONReader {
    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`; the cursor is on the sign or first digit.
    mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        let negative = peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        guard isDigit(peek()) else { throw failure("expected a digit after '-', found \(found)") }
        // Accumulated as a negative number, so that Int.min still fits.
        var negated = 0
        var overflow = false
        if peek() == UInt8(ascii: "0") {
            index += 1
            if isDigit(peek()) { throw failure("number with a leading zero", at: start) }
        } else {
            while isDigit(peek()) {
                let (shifted, overflowed) = negated.multipliedReportingOverflow(by: 10)
                let (next, underflowed) = shifted.subtractingReportingOverflow(Int(peek() - UInt8(ascii: "0")))
                overflow = overflow || overflowed || underflowed
                negated = next
                index += 1
            }
        }
        var whole = true
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard isDigit(peek()) else { throw failure("expected a digit after the decimal point, found \(found)") }
            while isDigit(peek()) { index += 1 }
            whole = false
        }
        if peek() | 0x20 == UInt8(ascii: "e") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard isDigit(peek()) else { throw failure("expected a digit in the exponent, found \(found)") }
            while isDigit(peek()) { index += 1 }
            whole = false
        }
        if whole, !overflow {
            if negative { return .int(negated) }
            if negated != .min { return .int(-negated) }
        }
        // Integers beyond Int, fractions and exponents go through Double. As with JSONDecoder, a
        // fraction or exponent that comes out whole below 2^53 is an Int (`1.0`, `1e2`, `-0.0`).
        // (From 2^53 up JSONDecoder re-read the text as a Decimal and cut off the fraction; such
        // numbers stay Doubles here.)
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw failure("number \(text.prefix(40))\(text.count > 40 ? "…" : "") is out of range", at: start)
        }
        if !whole, double.rounded(.towardZero) == double, abs(double) < 9_007_199_254_740_992 { return .int(Int(double)) }
        return .double(double)
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
