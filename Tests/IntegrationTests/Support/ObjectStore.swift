import Foundation
import Synchronization
import XCTest

/// A real S3-compatible store on 127.0.0.1: OpenStack Swift with its S3 API, started by
/// Scripts/object_store in a temp folder, on free ports.
///
/// Starting one takes about 2 s, so a test process shares one (`shared()`), and each test makes
/// its own bucket (`makeBucketName`). The store runs under `object_store start --until-stdin-closes`,
/// whose stdin is a pipe from this process: `stop()`, the end of the test bundle, or this
/// process dying for any reason closes it, and the script then stops every server it started.
final class ObjectStore: Sendable {
    let endpoint: String
    let accessKeyID: String
    let secretAccessKey: String
    let region: String
    /// Swift's own URL of the account: `\(publicBaseURL)/BUCKET/KEY` reads an object without
    /// signing once its bucket is public-read (the S3 path-style URL refuses unsigned reads).
    let publicBaseURL: String
    private let folder: URL
    private let running: Mutex<Running?>

    private struct Running: @unchecked Sendable {  // Process and Pipe are only touched under the mutex
        let process: Process
        let stdin: Pipe
    }

    private struct Announcement: Decodable {
        let endpoint: String
        let access_key_id: String
        let secret_access_key: String
        let region: String
        let public_base_url: String
    }

    /// The process's store, started by the first test that asks. Every later caller gets the
    /// same store, or the same skip or failure.
    static func shared() throws -> ObjectStore {
        try sharedStore.get()
    }

    private static let sharedStore = Result { () throws -> ObjectStore in
        let store = try ObjectStore()
        BundleEndObserver.stopAtBundleEnd(store)
        return store
    }

    /// A store of one's own, for a test that must stop or break it.
    init() throws {
        try Self.installPackages()
        folder = try Paths.temporaryFolder().appendingPathComponent("object-store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stderrURL = folder.deletingLastPathComponent().appendingPathComponent("object_store.stderr")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let process = Process()
        let stdin = Pipe(), stdout = Pipe()
        // Debian's interpreter, which has Swift's modules (a python3 earlier on PATH may not).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Paths.scripts.appendingPathComponent("object_store").path, "start", folder.path,
                             "--until-stdin-closes"]
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        let line = stdout.fileHandleForReading.readLine()
        guard let announced = try? JSONDecoder().decode(Announcement.self, from: Data(line)) else {
            try? stdin.fileHandleForWriting.close()
            process.waitUntilExit()
            let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            throw ServerError(description: "the object store did not start (status \(process.terminationStatus)):\n\(stderr)")
        }
        endpoint = announced.endpoint
        accessKeyID = announced.access_key_id
        secretAccessKey = announced.secret_access_key
        region = announced.region
        publicBaseURL = announced.public_base_url
        running = Mutex(Running(process: process, stdin: stdin))
    }

    deinit { stop() }

    /// Stops the servers and waits for them (under a second). Idempotent.
    func stop() {
        guard let taken = running.withLock({ state in defer { state = nil }; return state }) else { return }
        try? taken.stdin.fileHandleForWriting.close()
        taken.process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
    }

    /// A bucket name no other test uses (the bucket itself is created by the test).
    func makeBucketName(_ hint: String) -> String {
        let slug = hint.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return "t-" + String(slug.prefix(30)) + "-" + UUID().uuidString.prefix(8).lowercased()
    }

    /// The AWS SDK variables that point a client (or the binary) at this store.
    var environment: [String: String] {
        ["AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey, "AWS_REGION": region,
         "AWS_ENDPOINT_URL_S3": endpoint]
    }

    /// `object_store install` is quick when the packages are there; when they are missing and
    /// cannot be installed (no root, no network), the tests that need the store are skipped.
    private static func installPackages() throws {
        let result = try Command.run("/usr/bin/python3", [Paths.scripts.appendingPathComponent("object_store").path, "install"])
        guard result.status == 0 else {
            throw XCTSkip("OpenStack Swift is not installed and 'Scripts/object_store install' failed:\n\(result.stderr)")
        }
    }
}

/// Stops the shared store when the test bundle finishes, before the process exits (which would
/// stop it too, only later and leaving its temp folder).
private final class BundleEndObserver: NSObject, XCTestObservation, Sendable {
    private let store: ObjectStore

    private init(store: ObjectStore) {
        self.store = store
    }

    static func stopAtBundleEnd(_ store: ObjectStore) {
        XCTestObservationCenter.shared.addTestObserver(BundleEndObserver(store: store))
    }

    func testBundleDidFinish(_ testBundle: Bundle) {
        store.stop()
    }
}
