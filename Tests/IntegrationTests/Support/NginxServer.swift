import Foundation
import XCTest

/// Debian's nginx serving a cache with Scripts/nginx.conf.template, in the foreground with its
/// own prefix, pid, log and temp folders, on 127.0.0.1 and a free port.
final class NginxServer {
    let port: Int
    private let server: BackgroundServer

    init(cache: URL) throws {
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("nginx is not installed: run Scripts/setup (installs nginx-light)")
        }
        let prefix = try Paths.temporaryFolder().appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        let template = try String(contentsOf: Paths.scripts.appendingPathComponent("nginx.conf.template"), encoding: .utf8)
        var lastError: Error?
        // A free port is found by binding port 0; another process could take it before nginx
        // does, so a failed start is retried on a new port.
        for _ in 0..<3 {
            let port = try Self.freePort()
            let config = prefix.appendingPathComponent("nginx.conf")
            try template.replacingOccurrences(of: "@CACHE@", with: cache.path)
                .replacingOccurrences(of: "@LISTEN@", with: "127.0.0.1:\(port)")
                .replacingOccurrences(of: "@PREFIX@", with: prefix.path)
                .write(to: config, atomically: true, encoding: .utf8)
            let server = try BackgroundServer(["--signal", "QUIT", nginx, "-p", prefix.path, "-e",
                                               prefix.appendingPathComponent("error.log").path,
                                               "-c", config.path, "-g", "daemon off;"])
            do {
                try server.wait { (try? RawHTTP.request(port: port, "HEAD", "/")) != nil }
                self.port = port
                self.server = server
                return
            } catch {
                server.stop()
                let log = (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                lastError = ServerError(description: "nginx did not start: \(server.stderr)\n\(log)")
            }
        }
        throw lastError ?? ServerError(description: "nginx did not start")
    }

    deinit { stop() }

    var url: String { "http://127.0.0.1:\(port)/" }

    func stop() { server.stop() }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ServerError(description: "cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
