/// An `srcset` attribute read as the HTML standard's "parse a srcset attribute" algorithm does
/// (https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute): candidates are
/// separated by commas, each a URL (which may itself contain commas) then optional descriptors.
/// A candidate with invalid descriptors is dropped, as browsers drop it.
struct SrcSet: Equatable {
    struct Candidate: Equatable {
        var url: String
        /// The `w` descriptor: the image's intrinsic width in pixels.
        var width: Int?
        /// The `x` descriptor; a candidate without descriptors is 1x.
        var density: Double?
    }

    var candidates: [Candidate]

    /// Attribute values are untrusted; beyond this many bytes (cut at a character boundary) the
    /// rest is ignored, so a hostile value costs bounded time.
    static let lengthLimit = 64 * 1024

    init(_ attribute: String) {
        var text = attribute
        candidates = text.withUTF8 { Self.parse(UnsafeBufferPointer(rebasing: Self.limited($0))) }
    }

    /// The largest candidate: by width when any candidate gives one, else by density (no
    /// descriptor counts as 1x); the first wins ties. `data:` URIs are never chosen.
    var largest: Candidate? {
        let byWidth = candidates.contains { $0.width != nil && !HTMLImageAttributes.isDataURI($0.url) }
        var best: (index: Int, size: Double)?
        for (index, candidate) in candidates.enumerated() where !HTMLImageAttributes.isDataURI(candidate.url) {
            let size = byWidth ? candidate.width.map(Double.init) : candidate.density ?? 1
            guard let size, size > (best?.size ?? -1) else { continue }
            best = (index, size)
        }
        return best.map { candidates[$0.index] }
    }

    private static func limited(_ bytes: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>> {
        guard bytes.count > lengthLimit else { return bytes[...] }
        var end = lengthLimit
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return bytes[..<end]
    }

    // The algorithm's delimiters (ASCII whitespace, comma, parentheses) are single bytes that never
    // occur inside a multi-byte UTF-8 sequence, so it runs on the bytes as written: a tenth of the
    // work of going through Unicode scalars for what is nearly always an ASCII URL list.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static let comma = UInt8(ascii: ",")

    private static func parse(_ input: UnsafeBufferPointer<UInt8>) -> [Candidate] {
        var candidates: [Candidate] = []
        var position = 0
        while true {
            while position < input.count, isSpace(input[position]) || input[position] == comma { position += 1 }
            guard position < input.count else { return candidates }
            let urlStart = position
            while position < input.count, !isSpace(input[position]) { position += 1 }
            var urlEnd = position
            var descriptors: [Slice<UnsafeBufferPointer<UInt8>>] = []
            if input[urlEnd - 1] == comma {
                // A URL ending in commas ends its candidate: no descriptors follow.
                while urlEnd > urlStart, input[urlEnd - 1] == comma { urlEnd -= 1 }
            } else {
                descriptors = tokenizeDescriptors(input, &position)
            }
            guard urlEnd > urlStart else { continue }
            let url = String(decoding: UnsafeBufferPointer(rebasing: input[urlStart..<urlEnd]), as: UTF8.self)
            if let candidate = candidate(url: url, descriptors: descriptors) { candidates.append(candidate) }
        }
    }

    /// The descriptor tokens after a URL, up to the comma that ends the candidate (commas inside
    /// parentheses belong to the token); `position` moves past that comma.
    private static func tokenizeDescriptors(_ input: UnsafeBufferPointer<UInt8>, _ position: inout Int)
        -> [Slice<UnsafeBufferPointer<UInt8>>]
    {
        enum State { case inDescriptor, inParens, afterDescriptor }
        while position < input.count, isSpace(input[position]) { position += 1 }
        var descriptors: [Slice<UnsafeBufferPointer<UInt8>>] = []
        var start = position
        var state = State.inDescriptor
        func flush(upTo end: Int) {
            if end > start { descriptors.append(input[start..<end]) }
        }
        while position < input.count {
            let byte = input[position]
            position += 1
            switch state {
            case .inDescriptor:
                if isSpace(byte) {
                    flush(upTo: position - 1)
                    state = .afterDescriptor
                } else if byte == comma {
                    flush(upTo: position - 1)
                    return descriptors
                } else if byte == UInt8(ascii: "(") {
                    state = .inParens
                }
            case .inParens:
                if byte == UInt8(ascii: ")") { state = .inDescriptor }
            case .afterDescriptor:
                if !isSpace(byte) {
                    state = .inDescriptor
                    position -= 1
                    start = position
                }
            }
        }
        if state != .afterDescriptor { flush(upTo: position) }
        return descriptors
    }

    /// Applies the descriptors (each a token's bytes); nil when they are invalid (unknown,
    /// repeated, or `w` with `x`).
    static func candidate<Token: BidirectionalCollection<UInt8>>(url: String, descriptors: [Token]) -> Candidate? {
        var width: Int?, density: Double?, height: Int?
        for descriptor in descriptors {
            guard let unit = descriptor.last else { return nil }
            let value = descriptor.dropLast()
            switch unit {
            case UInt8(ascii: "w"):
                guard width == nil, density == nil, let parsed = integer(value), parsed > 0 else { return nil }
                width = parsed
            case UInt8(ascii: "x"):
                guard width == nil, density == nil, height == nil, let parsed = floatingPoint(value), parsed >= 0 else { return nil }
                density = parsed
            case UInt8(ascii: "h"):
                guard height == nil, density == nil, let parsed = integer(value), parsed > 0 else { return nil }
                height = parsed
            default:
                return nil
            }
        }
        // `h` alone is invalid (it qualifies a `w`).
        if height != nil, width == nil { return nil }
        return Candidate(url: url, width: width, density: density)
    }

    /// The standard's "valid non-negative integer": ASCII digits only.
    private static func integer(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// The standard's "valid floating-point number": digits with an optional `-`, fraction and exponent.
    private static func floatingPoint(_ bytes: some BidirectionalCollection<UInt8>) -> Double? {
        guard !bytes.isEmpty, bytes.count <= 32,
              bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 | 0x20 == 0x65 }),
              let first = bytes.first, first != 0x2B, bytes.last != 0x2E, first != 0x2E || bytes.count > 1,
              let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}
