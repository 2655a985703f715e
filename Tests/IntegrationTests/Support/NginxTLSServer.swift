import Foundation
import XCTest

/// Debian's nginx serving a folder over TLS with HTTP/2 (ALPN) on two free ports of 127.0.0.1,
/// as a feed's site and its image host are two origins, with `certificate`. Its access log
/// records, per request, the port, protocol and connection serial number it came on.
final class NginxTLSServer {
    struct Request: Equatable {
        let port: Int
        let httpProtocol: String
        let connection: Int
        let path: String
        let status: Int
    }

    let ports: (site: Int, images: Int)
    private let server: BackgroundServer
    private let accessLog: URL

    init(root: URL, certificate: SelfSignedCertificate) throws {
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("nginx is not installed: run Scripts/setup (installs nginx-light)")
        }
        let prefix = try Paths.temporaryFolder().appendingPathComponent("nginx-tls")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        accessLog = prefix.appendingPathComponent("access.log")
        var lastError: Error?
        // Ports found free can be taken by another process before nginx binds them: retried.
        for _ in 0..<3 {
            let ports = (site: try NginxServer.freePort(), images: try NginxServer.freePort())
            let config = prefix.appendingPathComponent("nginx.conf")
            try Self.config(prefix: prefix, root: root, certificate: certificate, ports: [ports.site, ports.images])
                .write(to: config, atomically: true, encoding: .utf8)
            let server = try BackgroundServer(["--signal", "QUIT", nginx, "-p", prefix.path, "-e",
                                               prefix.appendingPathComponent("error.log").path,
                                               "-c", config.path, "-g", "daemon off;"])
            do {
                try server.wait {
                    [ports.site, ports.images].allSatisfy { port in
                        guard let fd = try? RawHTTP.connect(port: port) else { return false }
                        close(fd)
                        return true
                    }
                }
                self.ports = ports
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

    func url(_ path: String, port: Int) -> String { "https://127.0.0.1:\(port)/\(path)" }

    func stop() { server.stop() }

    /// Every request nginx logged so far (it writes each line as the request ends).
    var requests: [Request] {
        let text = (try? String(contentsOf: accessLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 5, let port = Int(fields[0]), let connection = Int(fields[2]),
                  let status = Int(fields[4]) else { return nil }
            return Request(port: port, httpProtocol: fields[1], connection: connection, path: fields[3], status: status)
        }
    }

    private static func config(prefix: URL, root: URL, certificate: SelfSignedCertificate, ports: [Int]) -> String {
        let servers = ports.map { port in
            """
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(certificate.certificate.path);
                    ssl_certificate_key \(certificate.key.path);
                    ssl_protocols TLSv1.2 TLSv1.3;
                    root \(root.path);
                }
            """
        }
        // One worker, so $connection numbers every connection of the run once.
        return """
        worker_processes 1;
        pid \(prefix.path)/nginx.pid;
        error_log \(prefix.path)/error.log warn;
        events { worker_connections 256; }
        http {
            log_format streams '$server_port $server_protocol $connection $uri $status';
            access_log \(prefix.path)/access.log streams;
            types { image/jpeg jpg; application/javascript js; }
            client_body_temp_path \(prefix.path)/client_body;
            proxy_temp_path \(prefix.path)/proxy;
            fastcgi_temp_path \(prefix.path)/fastcgi;
            uwsgi_temp_path \(prefix.path)/uwsgi;
            scgi_temp_path \(prefix.path)/scgi;
        \(servers.joined(separator: "\n"))
        }
        """
    }
}
