import Foundation

/// Runs the real `photomirror` binary and captures what it printed.
struct Photomirror {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    var environment: [String: String] = [:]
    /// The working directory, for relative operands; the test runner's when nil.
    var currentDirectory: URL?

    /// Starts the binary without waiting: for tests that signal or kill it.
    func start(_ arguments: [String], output: URL) throws -> Process {
        let process = makeProcess(arguments)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    /// Starts the binary, SIGKILLs it after `delay` seconds and waits for it: a crash at an
    /// arbitrary instant. Its output goes to `output`.
    func kill(_ arguments: [String], after delay: Double, output: URL) throws {
        let process = try start(arguments, output: output)
        Thread.sleep(forTimeInterval: delay)
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func run(_ arguments: [String]) throws -> Result {
        let process = makeProcess(arguments)
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("pm-out-\(UUID().uuidString)")
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("pm-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        // Files, not pipes: a chatty child can't fill a pipe buffer and hang the test.
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let status = try process.runToEnd()
        return Result(status: status,
                      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    private func makeProcess(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(self.environment) { $1 }
        process.environment = environment
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        return process
    }
}

/// Width and height from a PNG's IHDR chunk.
func pngSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data)
    guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] else { return nil }
    func be32(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be32(16), be32(20))
}
