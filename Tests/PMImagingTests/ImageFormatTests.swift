import Testing
import PMImaging

@Suite struct ImageFormatTests {
    private func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.withUnsafeBytes { ImageFormat.sniff($0) }
    }

    @Test func recognisesMagicBytes() {
        #expect(sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
    }

    @Test func rejectsNearMissesAndShortInput() {
        #expect(sniff([]) == nil)
        #expect(sniff([0xFF, 0xD8]) == nil)
        #expect(sniff([0xFF, 0xD8, 0xFE, 0xFF]) == nil)  // SOI without a marker after it
        #expect(sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A]) == nil)
        #expect(sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x0A, 0x0A]) == nil)  // CR-LF mangled
        #expect(sniff(Array("GIF8".utf8)) == nil)
    }

    @Test func nonImageErrorSaysWhatTheBytesAreWithoutQuotingThem() {
        let html = Array("<!DOCTYPE html>".utf8)
        #expect(throws: ImageError("not a \(ImageFormat.listed) image (15 bytes of text)")) {
            try Thumbnailer.pngThumbnails(of: html, sizes: [ThumbnailSize(width: 40, height: 40)])
        }
        #expect(throws: ImageError("not a \(ImageFormat.listed) image (empty input)")) {
            try Thumbnailer.pngThumbnails(of: [UInt8](), sizes: [ThumbnailSize(width: 40, height: 40)])
        }
        #expect(throws: ImageError("not a \(ImageFormat.listed) image (1 byte of text)")) {
            try Thumbnailer.pngThumbnails(of: [0x0A], sizes: [ThumbnailSize(width: 40, height: 40)])
        }
    }
}
