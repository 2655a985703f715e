import CodecShim

/// Turns decoded pixels into sRGB before resampling, from the ICC profile or CICP code points a
/// decoder left in the image (CMYK JPEGs are converted by their decoder already). Untagged and
/// sRGB images return without any LittleCMS call.
enum ColorManagement {
    /// Converts in place. A broken or unusable profile never fails the image: its pixels are
    /// shown as stored, as untagged ones are. Returns whether the pixels were converted.
    @discardableResult
    static func convertToSRGB(_ image: DecodedImage) -> Bool {
        guard image.raw.icc != nil || image.raw.cicp_primaries != 0 else { return false }
        let message = CodecMessage()
        // The shim writes through `data` and changes no field, so a copy of the struct suffices.
        var raw = image.raw
        return pm_color_convert_to_srgb(&raw, message.pointer) == 1
    }
}
