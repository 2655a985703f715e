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
        try OracleScript.check("image_conformance.py", skipReason: "Scripts/setup --for-tests makes the oracle's venv")
    }
}
