import CodecShim

/// Full-frame pixels from a decoder, still in the C buffer they were decoded into (no copy),
/// freed exactly once when the last reference goes away. A class rather than a `~Copyable`
/// struct: returned from `ImageFormat.Decoder`, a closure with typed throws, the struct made the
/// decoders skip their limit check at random in debug builds (Swift 6.3, parallel tests).
final class DecodedImage {
    let raw: pm_image
    /// How the stored pixels must be turned to display upright (EXIF, else XMP `tiff:Orientation`).
    let orientation: ExifOrientation

    init(taking raw: pm_image, orientation: ExifOrientation) {
        self.raw = raw
        self.orientation = orientation
    }

    /// What the decoder said of a damaged file it still made the image from, or nil.
    var warning: String? { raw.warning.map { String(cString: $0) } }

    var width: Int { Int(raw.width) }
    var height: Int { Int(raw.height) }
    var channels: Int { Int(raw.channels) }

    deinit {
        var owned = raw
        pm_image_free(&owned)
    }
}

/// A heap buffer of PM_MESSAGE_CAPACITY bytes for the C shims to write their error text into.
struct CodecMessage: ~Copyable {
    let pointer: UnsafeMutablePointer<CChar>

    init() {
        pointer = .allocate(capacity: Int(PM_MESSAGE_CAPACITY))
        pointer.initialize(repeating: 0, count: Int(PM_MESSAGE_CAPACITY))
    }

    /// The message with the format's prefix, e.g. "JPEG: Premature end of JPEG file".
    func error(_ prefix: String) -> ImageError {
        pointer[Int(PM_MESSAGE_CAPACITY) - 1] = 0  // the shims always terminate; never trust that
        let text = String(cString: pointer)
        return ImageError("\(prefix): \(text.isEmpty ? "unknown error" : text)")
    }

    /// The buffer's text, nil when empty: for a buffer a shim fills with a warning, if any.
    var text: String? {
        pointer[Int(PM_MESSAGE_CAPACITY) - 1] = 0
        let text = String(cString: pointer)
        return text.isEmpty ? nil : text
    }

    deinit { pointer.deallocate() }
}
