import Foundation
import XCTest

/// A fresh self-signed certificate for 127.0.0.1 (its subjectAltName, which libcurl checks) and
/// its key, made by the openssl tool in a temporary folder. It is its own CA: a client trusts it
/// by naming `certificate` as its CA bundle.
struct SelfSignedCertificate {
    let certificate: URL
    let key: URL

    init() throws {
        guard let openssl = ["/usr/bin/openssl", "/bin/openssl"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("openssl is not installed: run Scripts/setup --for-tests")
        }
        let folder = try Paths.temporaryFolder()
        certificate = folder.appendingPathComponent("certificate.pem")
        key = folder.appendingPathComponent("key.pem")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-keyout", key.path, "-out", certificate.path, "-days", "2", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1"]
        let errors = folder.appendingPathComponent("openssl.err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ServerError(description: "openssl req exited \(process.terminationStatus): \(text)")
        }
    }
}
