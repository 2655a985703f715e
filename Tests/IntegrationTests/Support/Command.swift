import Foundation

/// Runs a program found on PATH and captures its output, for tests that check what another
/// tool (bash, man, fish) makes of photomirror's files.
enum Command {
    static func find(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Photomirror.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        let status = try process.runToEnd()
        return .init(status: status,
                     stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                     stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
}
