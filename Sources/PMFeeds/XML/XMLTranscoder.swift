import CXML2

/// One of libxml2's charset converters (iconv, ICU or its own UTF-16/UTF-32 code): the names
/// libxml2 accepted in a declaration before are still read. Lives for one conversion on one thread.
final class XMLTranscoder {
    private let handler: xmlCharEncodingHandlerPtr

    init?(_ name: String) {
        _ = XMLDocumentReader.libxml2Initialized
        guard let handler = xmlFindCharEncodingHandler(name) else { return nil }
        self.handler = handler
    }

    deinit { xmlCharEncCloseFunc(handler) }

    enum Outcome {
        case converted([UInt8])
        /// The input ended inside a character; the UTF-8 of what came before it.
        case truncated([UInt8], dropped: Int)
        /// The byte at `offset` is not valid in this charset.
        case invalid(offset: Int)
    }

    /// `bytes` as UTF-8. With `substituteLatin1`, each byte the charset rejects becomes the
    /// character of the same value instead (WHATWG's windows-1252 for iconv's CP1252).
    func convert(_ bytes: ArraySlice<UInt8>, substituteLatin1: Bool = false) -> Outcome {
        guard bytes.count < Int(Int32.max) / 4 else { return .invalid(offset: 0) }
        guard let input = xmlBufferCreateSize(bytes.count + 1),
              let output = xmlBufferCreateSize(bytes.count * 2 + 64) else { return .invalid(offset: 0) }
        defer {
            xmlBufferFree(input)
            xmlBufferFree(output)
        }
        bytes.withUnsafeBufferPointer { _ = xmlBufferAdd(input, $0.baseAddress, Int32($0.count)) }
        // A rejected byte is reported on the thread's generic channel, which would print it.
        pm_xml_silence_generic_errors()
        var consumed = 0
        while xmlBufferLength(input) > 0 {
            let before = Int(xmlBufferLength(input))
            let status = xmlCharEncInFunc(handler, output, input)
            let after = Int(xmlBufferLength(input))
            consumed += before - after
            if status < 0 {
                guard status == -2, substituteLatin1, after > 0, let content = xmlBufferContent(input) else {
                    return .invalid(offset: consumed)
                }
                let byte = content[0]
                var scalar = Array(String(Unicode.Scalar(byte)).utf8)
                _ = xmlBufferAdd(output, &scalar, Int32(scalar.count))
                _ = xmlBufferShrink(input, 1)
                consumed += 1
            } else if after == before {
                return .truncated(Self.bytes(of: output), dropped: after)
            }
        }
        return .converted(Self.bytes(of: output))
    }

    private static func bytes(of buffer: xmlBufferPtr) -> [UInt8] {
        guard let content = xmlBufferContent(buffer) else { return [] }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
    }
}
