import Foundation
import XCTest

/// A PNG at the 100-Mpx limit is 400 MB of RGBA pixels. `thumb` never holds them for a
/// non-interlaced one (its rows are scaled as they are decoded), and holds one interlaced
/// image's at a time however many threads decode. Peak memory is the child's own maximum RSS.
final class LargePNGMemoryTests: XCTestCase {
    /// 10000×10000 RGBA gradients from Scripts/large_png.py, a few hundred KB each.
    private static func largePNG(in folder: URL, name: String, interlaced: Bool) throws -> URL {
        let file = folder.appendingPathComponent(name)
        let result = try Command.run("/usr/bin/env", ["python3", Paths.scripts.appendingPathComponent("large_png.py").path,
                                                      file.path, "10000", "10000"] + (interlaced ? ["--interlaced"] : []))
        XCTAssertEqual(result.status, 0, result.stderr)
        return file
    }

    /// Runs photomirror with `arguments` under a Python parent that reports the child's peak RSS.
    private func peakResidentMB(_ arguments: [String]) throws -> (status: Int32, megabytes: Double, stderr: String) {
        let wrapper = """
            import resource, subprocess, sys
            status = subprocess.run(sys.argv[1:]).returncode
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
            sys.exit(status)
            """
        let result = try Command.run("/usr/bin/env", ["python3", "-c", wrapper, Paths.binary.path] + arguments)
        let megabytes = try XCTUnwrap(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
                                      "no peak RSS printed: \(result.stdout) \(result.stderr)")
        return (result.status, megabytes, result.stderr)
    }

    func testThumbOfA100MegapixelPNGNeverHoldsItsPixels() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try Self.largePNG(in: folder, name: "large.png", interlaced: false)
        let output = folder.appendingPathComponent("out")
        let run = try peakResidentMB(["thumb", "-o", output.path, png.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let thumbnail = try Data(contentsOf: output.appendingPathComponent("large.png"))
        XCTAssertEqual(pngSize(thumbnail)?.width, 40)
        XCTAssertEqual(pngSize(thumbnail)?.height, 40)
        // Holding the decoded image alone would be 400 MB.
        XCTAssertLessThan(run.megabytes, 150, "peak RSS of thumb on a 10000×10000 RGBA PNG")
    }

    func testInterlacedPNGsDecodeOneAtATimeAndMatchTheRowByRowThumbnail() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try Self.largePNG(in: folder, name: "plain.png", interlaced: false)
        let first = try Self.largePNG(in: folder, name: "first.png", interlaced: true)
        let second = folder.appendingPathComponent("second.png")
        try FileManager.default.copyItem(at: first, to: second)
        let output = folder.appendingPathComponent("out")
        let run = try peakResidentMB(["thumb", "--jobs", "2", "-o", output.path, first.path, second.path, plain.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        // One interlaced image's pixels are 400 MB; both at once would be 800 MB.
        XCTAssertLessThan(run.megabytes, 600, "peak RSS of thumb --jobs 2 on two 10000×10000 interlaced PNGs")
        // The whole-image path (interlaced) and the row-by-row path give the same bytes.
        let expected = try Data(contentsOf: output.appendingPathComponent("plain.png"))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("first.png")), expected)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("second.png")), expected)
    }
}
