import Foundation
import Testing
@testable import PMImaging

/// Every file of the shared image fixtures — whatever its extension — goes through the full
/// thumbnail path: each either yields a 40×40 PNG or a readable error. A crash or a hang fails
/// the whole run, which is the point.
@Suite(.enabled(if: Fixtures.available, Fixtures.missingReason))
struct EveryFixtureTests {
    static let everyFile: [String] = {
        guard let walker = FileManager.default.enumerator(atPath: Fixtures.root.path) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { !["md", "tsv", "txt"].contains(($0 as NSString).pathExtension.lowercased()) }
            .filter { path in
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: Fixtures.root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                return !isDirectory.boolValue
            }
            .sorted()
    }()

    @Test func theSweepSeesEveryFolder() {
        for folder in ["pngsuite/", "png-broken/", "jpeg/jpeg-decoder-crashtest/", "jpeg/pillow/", "jpeg/libjpeg-turbo/"] {
            #expect(Self.everyFile.contains { $0.hasPrefix(folder) }, "no files from \(folder)")
        }
    }

    @Test(arguments: everyFile)
    func decodesOrFailsWithAReason(path: String) throws {
        let bytes = try Fixtures.bytes(path)
        do {
            let pngs = try Thumbnailer.pngThumbnails(of: bytes, sizes: [ThumbnailSize(width: 40, height: 40)])
            let pixels = try Pixels(png: pngs[0])
            #expect(pixels.width == 40 && pixels.height == 40)
        } catch let error as ImageError {
            #expect(!error.message.isEmpty)
        }
    }
}
