import Testing
import Foundation

/// The shared image fixtures live beside the repository: `<package root>/../shared/fixtures/images`.
/// Tests that need them are disabled (with this reason printed) when the folder is absent.
enum Fixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // PMImagingTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/fixtures/images").standardizedFileURL

    static var available: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static let missingReason: Comment = "fixture folder ../shared/fixtures/images is absent; skipping fixture tests"

    /// Image files under `folder` (recursively), as paths relative to the fixture root, sorted.
    /// Empty when the folder is absent, so parameterised tests simply have no cases.
    static func images(in folder: String, where include: (String) -> Bool = { _ in true }) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { ["jpg", "jpeg", "png"].contains(($0 as NSString).pathExtension.lowercased()) }
            .filter { include(($0 as NSString).lastPathComponent) }
            .map { "\(folder)/\($0)" }
            .sorted()
    }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }
}
