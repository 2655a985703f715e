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

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("photomirror-it-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
