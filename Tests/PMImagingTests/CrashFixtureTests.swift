import Foundation
import Testing
import PMImaging

/// Fuzzed and malformed JPEGs: each must decode or fail with an ImageError, promptly.
@Suite(.enabled(if: Fixtures.available, Fixtures.missingReason))
struct CrashFixtureTests {
    static let files = Fixtures.images(in: "jpeg/jpeg-decoder-crashtest")

    @Test func corpusIsPresent() {
        #expect(Self.files.count == 107)
    }

    @Test(arguments: files)
    func decodesOrFailsCleanlyAndQuickly(path: String) throws {
        let bytes = try Fixtures.bytes(path)
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let result = try thumbnail(bytes, "40x40")
            #expect(result.width == 40 && result.height == 40)
        } catch let error as ImageError {
            #expect(!error.message.isEmpty)
        }
        // A hang guard (a decoder loop, a runaway parse), not a speed test: far above any real run.
        #expect(clock.now - started < .seconds(30), "\(path) took too long: a decoder loop or a huge allocation")
    }
}
