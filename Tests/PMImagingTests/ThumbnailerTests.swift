import Foundation
import Synchronization
import Testing
import PMImaging

@Suite struct ThumbnailerTests {
    @Test func returnsOnePNGPerSizeInOrder() throws {
        var pixels = [UInt8]()
        for y in 0..<90 { for x in 0..<120 { pixels += [UInt8(x * 2), UInt8(y * 2), 128] } }
        let source = try pngBytes(width: 120, height: 90, channels: 3, pixels)
        let sizes = ["40x40", "80x60", "20x30", "200x10"].compactMap(ThumbnailSize.init(parsing:))
        let outputs = try Thumbnailer.pngThumbnails(of: source, sizes: sizes)
        #expect(outputs.count == sizes.count)
        for (png, size) in zip(outputs, sizes) {
            let result = try Pixels(png: png)
            #expect(result.width == size.width && result.height == size.height)
            #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        }
    }

    @Test func noSizesMeansNoWork() throws {
        #expect(try Thumbnailer.pngThumbnails(of: try pngBytes(width: 1, height: 1, channels: 3, [0, 0, 0]), sizes: []).isEmpty)
    }

    @Test func rawBufferAndArrayOverloadsAgree() throws {
        let source = try pngBytes(width: 3, height: 2, channels: 3, Array(0..<18))
        let size = [ThumbnailSize(width: 4, height: 4)]
        let viaArray = try Thumbnailer.pngThumbnails(of: source, sizes: size)
        let viaBuffer = try source.withUnsafeBytes { try Thumbnailer.pngThumbnails(of: $0, sizes: size) }
        #expect(viaArray == viaBuffer)
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason))
    func concurrentCallsGiveTheSerialResults() throws {
        let paths = ["jpeg/libjpeg-turbo/testorig.jpg", "jpeg/libjpeg-turbo/testimgp.jpg", "jpeg/pillow/pil_sample_cmyk.jpg",
                     "jpeg/pillow/hopper_orientation_6.jpg", "pngsuite/basn6a16.png", "jpeg/pillow/truncated_jpeg.jpg"]
        let inputs = try paths.map(Fixtures.bytes)
        let sizes = [ThumbnailSize(width: 40, height: 40), ThumbnailSize(width: 64, height: 48)]
        let render: @Sendable ([UInt8]) -> String = { bytes in
            do { return "\(try Thumbnailer.pngThumbnails(of: bytes, sizes: sizes))" } catch { return "error: \(error)" }
        }
        let serial = inputs.map(render)
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 48) { index in
            let which = index % inputs.count
            if render(inputs[which]) != serial[which] { mismatches.withLock { $0 += 1 } }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}
