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
        #expect(sniff(Array("GIF89a".utf8)) == nil)
    }

    @Test func nonImageErrorShowsTheFirstBytes() {
        let html = Array("<!DOCTYPE html>".utf8)
        #expect(throws: ImageError("not a JPEG, PNG or WebP image (starts with 3c 21 44 4f)")) {
            try Thumbnailer.pngThumbnails(of: html, sizes: [ThumbnailSize(width: 40, height: 40)])
        }
        #expect(throws: ImageError("not a JPEG, PNG or WebP image (empty input)")) {
            try Thumbnailer.pngThumbnails(of: [UInt8](), sizes: [ThumbnailSize(width: 40, height: 40)])
        }
        #expect(throws: ImageError("not a JPEG, PNG or WebP image (starts with 0a)")) {
            try Thumbnailer.pngThumbnails(of: [0x0A], sizes: [ThumbnailSize(width: 40, height: 40)])
        }
    }
}
