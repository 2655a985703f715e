import PMImaging
import PhotoMirror

/// The thumbnail format a sync or watch would write, checked before it starts: a format this
/// machine cannot encode (AVIF without an AV1 encoder in libheif) is refused once, naming where
/// the setting came from, instead of failing every image.
enum FormatOption {
    static func check(_ settings: EffectiveSettings) throws(UsageError) {
        let format = settings.format
        guard let why = ThumbnailEncoderCheck.unavailability(of: format.value) else { return }
        let place = format.source.file.map { "\($0): format" } ?? "--format"
        throw UsageError("\(place) \(format.value.rawValue): this machine cannot write it: \(why)")
    }
}
