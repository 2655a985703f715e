import Foundation
import XCTest

/// Validates a `--json` output against its docs/schema file with a real JSON Schema validator
/// (Scripts/json_schema_check.py, jsonschema from PyPI; `Scripts/setup --for-tests`).
enum JSONSchemaCheck {
    static let schemas = Paths.packageRoot.appendingPathComponent("docs/schema")

    /// Fails the test with every violation; `lines` for one document a line (watch).
    static func assertValid(_ output: String, against command: String, lines: Bool = false,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        guard (try? run(["-c", "import jsonschema, referencing"], input: "").status) == 0 else {
            throw XCTSkip("needs jsonschema for python3: run Scripts/setup --for-tests")
        }
        let script = Paths.scripts.appendingPathComponent("json_schema_check.py").path
        let result = try run([script, schemas.path, command] + (lines ? ["--lines"] : []), input: output)
        XCTAssertEqual(result.status, 0, "\(command) --json does not fit its schema:\n\(result.output)\n\(output)",
                       file: file, line: line)
    }

    private static func run(_ arguments: [String], input: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        // Written from another thread: a large document must not block on a full pipe.
        let data = Data(input.utf8)
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: data)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
