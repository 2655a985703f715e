// libFuzzer harness for the whole Swift image path: Thumbnailer.thumbnails (sniffing, limits,
// EXIF orientation, DCT scale choice, crop and letterbox geometry, resampling, the placeholder,
// PNG, WebP and JPEG encoding; AVIF's AV1 encoder is too slow under the sanitizers) with the decode
// limits scaled down for the sanitizers as in fuzz_common.h, then a round trip of every thumbnail
// through the decoder. Built by Scripts/fuzz.
import PMImaging

private let sizes = [ThumbnailSize(width: 40, height: 40), ThumbnailSize(width: 96, height: 27),
                     ThumbnailSize(width: 40, height: 40, fit: .contain, format: .webp),
                     ThumbnailSize(width: 27, height: 64, format: .jpeg, quality: 40)]
private let limits = DecodeLimits(maxPixels: 16_000_000, maxDecoderMemory: 64 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumbnailer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let thumbnails: [[UInt8]]
    do {
        thumbnails = try Thumbnailer.pngThumbnails(of: input, sizes: sizes, limits: limits)
    } catch {
        precondition(!error.message.isEmpty, "empty ImageError message")
        return 0
    }
    precondition(thumbnails.count == sizes.count, "one thumbnail per size")
    // Our own output must decode; a single 1×1 target keeps the check cheap.
    for file in thumbnails {
        do {
            _ = try Thumbnailer.pngThumbnails(of: file, sizes: [ThumbnailSize(width: 1, height: 1)])
        } catch {
            preconditionFailure("thumbnail does not decode: \(error)")
        }
    }
    return 0
}
