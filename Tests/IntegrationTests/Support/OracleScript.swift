import Foundation
import XCTest

/// A differential script of Scripts/ (feed_differential.py, image_conformance.py) run against the
/// built binary: it prints its table and ends with PASS, exits 1 with its violations, or 77 when
/// its oracle's Python modules cannot be imported, which is the only case that skips.
enum OracleScript {
    static func check(_ name: String, skipReason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.scripts.appendingPathComponent(name).path, "--binary", Paths.binary.path]
        process.currentDirectoryURL = Paths.packageRoot
        let output = try Paths.temporaryFolder().appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: output)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        if process.terminationStatus == 77 {
            print("\(name) skipped (\(skipReason)): \(printed)")
            throw XCTSkip(printed)
        }
        // One failure carrying the whole table and the violations; the table is in the log when
        // everything holds too.
        guard process.terminationStatus == 0 else {
            return XCTFail("\(name) exited \(process.terminationStatus):\n\(printed)", file: file, line: line)
        }
        print(printed)
        XCTAssertTrue(printed.hasSuffix("PASS\n"), "\(name):\n\(printed)", file: file, line: line)
    }
}
