import Foundation
import XCTest

/// A real HTTP server on 127.0.0.1 (Scripts/fixture_server.py) serving a temp folder, started
/// on an ephemeral port for one test and stopped with it. Its request log tells what a sync asked.
final class FixtureServer {
    let root: URL
    let port: Int
    /// The loopback address it listens on.
    let host: String
    private let process: Process
    private let stdin = Pipe()
    private let logURL: URL

    init(root: URL, host: String = "127.0.0.1", arguments: [String] = []) throws {
        self.root = root
        self.host = host
        logURL = root.deletingLastPathComponent().appendingPathComponent("requests-\(UUID().uuidString).log")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.scripts.appendingPathComponent("fixture_server.py").path,
                             "--root", root.path, "--log", logURL.path, "--stop-on-stdin-eof", "--bind", host] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardInput = stdin
        try process.run()
        let firstLine = String(decoding: stdout.fileHandleForReading.readLine(), as: UTF8.self)
        guard let port = Int(firstLine.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw ServerError(description: "the fixture server did not start (printed \"\(firstLine)\")")
        }
        self.port = port
    }

    deinit { stop() }

    /// Closing the server's stdin stops it, and a crashed test process closes it too, so no
    /// server outlives its test. It is killed as well: a program another thread started at the
    /// same instant may have inherited its stdin, or the socket through which Foundation learns
    /// that it ended (Foundation closes the other descriptors in a child only up to the highest
    /// it saw open), and then either could take as long as that program runs. Its end is seen
    /// by `ChildEnd` instead (`Process.runToEnd`), so once this returns its port is closed.
    /// Its request log is whole: each line is written and closed.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        _ = ChildEnd.wait(process.processIdentifier)
    }

    func url(_ path: String) -> String { "http://\(host):\(port)/\(path)" }

    /// Request lines so far: "GET /path 200".
    var requests: [String] {
        ((try? String(contentsOf: logURL, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Request lines with the conditional headers each carried: "GET /feed.js 304 If-None-Match If-Modified-Since".
    var conditionalRequests: [String] {
        let url = URL(fileURLWithPath: logURL.path + ".conditions")
        return ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// `GET /path <User-Agent header>` per request.
    var userAgents: [String] {
        let url = URL(fileURLWithPath: logURL.path + ".agents")
        return ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func clearLog() {
        try? FileManager.default.removeItem(at: logURL)
        try? FileManager.default.removeItem(atPath: logURL.path + ".conditions")
        try? FileManager.default.removeItem(atPath: logURL.path + ".agents")
    }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
}

extension FileHandle {
    /// Reads up to the first newline (the server prints its port, then nothing more).
    func readLine() -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try? read(upToCount: 1), let byte = chunk.first, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        return bytes
    }
}
