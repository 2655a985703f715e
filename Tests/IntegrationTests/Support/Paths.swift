import Foundation
import XCTest

/// Where the package, its scripts, the built binary and the shared fixtures are.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scripts = packageRoot.appendingPathComponent("Scripts")
    static let sharedFixtures = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    /// The `photomirror` built beside this test bundle.
    static var binary: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("photomirror")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/photomirror")
    }

    /// Real photographs from Debian's mate-backgrounds (installed by Scripts/setup).
    static func photos(count: Int) throws -> [URL] {
        let folder = URL(fileURLWithPath: "/usr/share/backgrounds/mate/nature")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".jpg") }.sorted()
        guard names.count >= count else {
            throw XCTSkip("needs \(count) photos in \(folder.path): run Scripts/setup (installs mate-backgrounds)")
        }
        return names.prefix(count).map { folder.appendingPathComponent($0) }
    }

    /// A new empty folder, inside this test process's own folder, which is removed when the
    /// process exits: a run of the suite leaves ~1.2 GB of caches and sites there otherwise.
    static func temporaryFolder() throws -> URL {
        let url = runFolder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let runFolder: URL = {
        atexit { try? FileManager.default.removeItem(at: Paths.runFolder) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("photomirror-tests-\(getpid())")
    }()
}
