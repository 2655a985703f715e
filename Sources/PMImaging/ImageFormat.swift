/// The input formats the thumbnailer decodes, told apart by magic bytes only (never by name or
/// Content-Type, which feeds get wrong).
public enum ImageFormat: String, Sendable {
    case jpeg, png

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        // SOI followed by the first marker's 0xFF prefix.
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= pngSignature.count, bytes.prefix(pngSignature.count).elementsEqual(pngSignature) {
            return .png
        }
        return nil
    }
}
