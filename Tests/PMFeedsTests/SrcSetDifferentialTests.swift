import Testing
@testable import PMFeeds

/// SrcSet's byte tokenizer against the Unicode-scalar one it replaced (kept here as it was).
@Suite struct SrcSetDifferentialTests {
    enum ScalarSrcSet {
        static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
        }

        static func parse(_ input: [Unicode.Scalar]) -> [SrcSet.Candidate] {
            var candidates: [SrcSet.Candidate] = []
            var position = 0
            while true {
                while position < input.count, isSpace(input[position]) || input[position] == "," { position += 1 }
                guard position < input.count else { return candidates }
                let urlStart = position
                while position < input.count, !isSpace(input[position]) { position += 1 }
                var urlEnd = position
                var descriptors: [String] = []
                if input[urlEnd - 1] == "," {
                    // A URL ending in commas ends its candidate: no descriptors follow.
                    while urlEnd > urlStart, input[urlEnd - 1] == "," { urlEnd -= 1 }
                } else {
                    descriptors = tokenizeDescriptors(input, &position)
                }
                guard urlEnd > urlStart else { continue }
                var url = ""
                url.unicodeScalars.append(contentsOf: input[urlStart..<urlEnd])
                if let candidate = SrcSet.candidate(url: url, descriptors: descriptors.map { Array($0.utf8) }) { candidates.append(candidate) }
            }
        }

        /// The descriptor tokens after a URL, up to the comma that ends the candidate (commas inside
        /// parentheses belong to the token); `position` moves past that comma.
        static func tokenizeDescriptors(_ input: [Unicode.Scalar], _ position: inout Int) -> [String] {
            enum State { case inDescriptor, inParens, afterDescriptor }
            while position < input.count, isSpace(input[position]) { position += 1 }
            var descriptors: [String] = []
            var current = ""
            var state = State.inDescriptor
            func flush() {
                if !current.isEmpty { descriptors.append(current) }
                current = ""
            }
            while position < input.count {
                let scalar = input[position]
                position += 1
                switch state {
                case .inDescriptor:
                    if isSpace(scalar) {
                        flush()
                        state = .afterDescriptor
                    } else if scalar == "," {
                        flush()
                        return descriptors
                    } else {
                        if scalar == "(" { state = .inParens }
                        current.unicodeScalars.append(scalar)
                    }
                case .inParens:
                    if scalar == ")" { state = .inDescriptor }
                    current.unicodeScalars.append(scalar)
                case .afterDescriptor:
                    if !isSpace(scalar) {
                        state = .inDescriptor
                        position -= 1
                    }
                }
            }
            flush()
            return descriptors
        }
    }

    @Test func theBytesTokenizeAsTheScalarsDid() {
        let pieces = ["a.jpg", " ", ",", "  ", "\t", "\n", "480w", "2x", "1.5x", "(", ")", "x(1, 2)", "é", "📷", "ü.png",
                      "100h", "w", "-1x", "data:image/gif;base64,R0l", "/img/1-960.jpg", ",,", "\u{0C}", "\u{A0}"]
        var random = SplitMix64(state: 11)
        for _ in 0..<5000 {
            let input = (0..<Int(random.next() % 9)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let reference = ScalarSrcSet.parse(Array(input.unicodeScalars))
            #expect(SrcSet(input).candidates == reference, "\(input.debugDescription)")
        }
    }
}
