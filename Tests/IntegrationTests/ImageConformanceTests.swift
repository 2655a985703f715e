import Foundation
import XCTest

/// Issue 12, every image in the right colours: Scripts/image_conformance.py thumbnails each file
/// of Tests/Fixtures/Images (WebP, GIF, AVIF, HEIC, ICC-tagged and oriented JPEG/PNG from decoders'
/// test suites) and the shared JPEG/PNG fixtures with the built binary, and compares every
/// thumbnail with a colour-managed Pillow rendering: every valid image decodes, ICC-tagged images
/// (and PNG gAMA/cHRM ones) are within 3/255 median and 8/255 each, orientation cases match.
/// Its table and any violations are this test's failure message.
final class ImageConformanceTests: XCTestCase {
    func testEveryImageDecodesInTheOraclesColoursAndOrientation() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The script runs itself with .build/venv-conformance's Python when that venv exists.
        process.arguments = ["python3", Paths.scripts.appendingPathComponent("image_conformance.py").path,
                             "--binary", Paths.binary.path]
        process.currentDirectoryURL = Paths.packageRoot
        let output = try Paths.temporaryFolder().appendingPathComponent("image-conformance.log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: output)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        if process.terminationStatus == 77 {
            // Only when the oracle's modules cannot be imported (Scripts/setup --for-tests makes its venv).
            print("ImageConformanceTests skipped: \(printed)")
            throw XCTSkip(printed)
        }
        if process.terminationStatus != 0 {
            XCTFail("image_conformance.py exited \(process.terminationStatus):\n\(printed)")
        } else {
            print(printed)
            XCTAssertTrue(printed.hasSuffix("PASS\n"), "image_conformance.py:\n\(printed)")
        }
    }
}
