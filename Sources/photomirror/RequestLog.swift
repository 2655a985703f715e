import Foundation
import PhotoMirror

/// `--verbose`'s line per request: "GET http://… 200 12.3 kB 0.12 s".
enum RequestLog {
    static func text(_ line: RequestLine) -> String {
        let outcome = line.status.map { "\($0) \(Output.bytes(line.bytes))" } ?? "failed (\(line.error ?? "no response"))"
        return "request: \(line.url) \(outcome) \(String(format: "%.2f", line.seconds)) s\n"
    }
}
