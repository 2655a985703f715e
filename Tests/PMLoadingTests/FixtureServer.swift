import Foundation
import PMLoading

/// A throwaway Python HTTP server on 127.0.0.1 at a kernel-chosen port.
/// Unchecked Sendable: concurrent tasks only read `port`; `process` is touched by init and stop.
final class FixtureServer: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let stdinPipe = Pipe()
    private let directory: URL

    struct StartupFailed: Error {}

    /// Python takes ~100 ms to start; waiting for it on a thread of our own keeps Swift's
    /// two-thread cooperative pool free for the timing-sensitive tests running alongside.
    static func start() async throws -> FixtureServer {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try FixtureServer() }) }.start()
        }
    }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pmloading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("server.py")
        try fixtureServerScript.write(to: script, atomically: true, encoding: .utf8)

        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", script.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = stdinPipe
        process.standardError = FileHandle.nullDevice
        try process.run()

        // The server prints its port once listening, so no connection can race its startup.
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        let line = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line) else {
            try? stdinPipe.fileHandleForWriting.close()
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw StartupFailed()
        }
        self.port = port
    }

    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// Closing stdin stops the server (see the script), and a crashed test process closes it
    /// too. It is killed as well, and not waited for: a program another test started at the same
    /// instant may have inherited its stdin, or the socket through which Foundation learns that
    /// it ended (Foundation closes the other descriptors in a child only up to the highest it saw
    /// open), and then either could take as long as that program runs. Such a wait here would
    /// hold one of the cooperative pool's two threads, which that other test may need to end.
    func stop() {
        try? stdinPipe.fileHandleForWriting.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a fresh server and loader, stopping both afterwards even on failure.
func withFixture(_ body: (FixtureServer, CurlLoader) async throws -> Void) async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let loader = CurlLoader()
    defer { loader.shutdown() }
    try await body(server, loader)
}
