// libFuzzer harness for the whole Swift image path: Thumbnailer.pngThumbnails (sniffing, limits,
// EXIF orientation, DCT scale choice, crop geometry, resampling, PNG encoding) with the decode
// limits scaled down for the sanitizers as in fuzz_common.h, then a round trip of every thumbnail
// through the decoder. Built by Scripts/fuzz.
import PMImaging

private let sizes = [ThumbnailSize(width: 40, height: 40), ThumbnailSize(width: 96, height: 27)]
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
    for png in thumbnails {
        do {
            _ = try Thumbnailer.pngThumbnails(of: png, sizes: [ThumbnailSize(width: 1, height: 1)])
        } catch {
            preconditionFailure("thumbnail does not decode: \(error)")
        }
    }
    return 0
}
