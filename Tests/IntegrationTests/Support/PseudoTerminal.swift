import Foundation

/// Runs a command with its stderr on a pseudo-terminal (Scripts/stderr_on_pty.py), so
/// `isatty(2)` is true as in a person's shell, and returns everything it wrote there. The
/// terminal turns "\n" into "\r\n"; the result has that undone.
enum PseudoTerminal {
    static func runCapturingStderr(_ executable: URL, _ arguments: [String], environment: [String: String]) throws
        -> (status: Int32, stderr: String) {
        let output = try Paths.temporaryFolder().appendingPathComponent("pty.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.scripts.appendingPathComponent("stderr_on_pty.py").path, executable.path]
            + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = (try String(contentsOf: output, encoding: .utf8)).replacingOccurrences(of: "\r\n", with: "\n")
        return (process.terminationStatus, text)
    }
}
