import Foundation

/// A server process started for one test through Scripts/stop_with_stdin.py: closing its stdin
/// (in `stop`, or by the test process dying) sends it SIGTERM, so none outlives its test.
final class BackgroundServer {
    private let process = Process()
    private let stdin = Pipe()
    let stdoutURL: URL
    let stderrURL: URL

    init(_ command: [String], environment: [String: String] = [:]) throws {
        let folder = try Paths.temporaryFolder()
        stdoutURL = folder.appendingPathComponent("stdout")
        stderrURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.scripts.appendingPathComponent("stop_with_stdin.py").path] + command
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = stdin
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    deinit { _ = stop() }

    var isRunning: Bool { process.isRunning }
    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits; returns the server's exit status.
    @discardableResult
    func stop() -> Int32 {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Polls until `ready` holds or the process exits; readiness, not timing, is what's awaited.
    func wait(until ready: () -> Bool) throws {
        for _ in 0..<600 {
            if ready() { return }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        throw ServerError(description: "the server did not become ready:\n\(stderr)")
    }
}
