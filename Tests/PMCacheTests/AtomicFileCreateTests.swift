import Foundation
@testable import PMSupport
import Testing

@Suite struct AtomicFileCreateTests {
    func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-create-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every way of naming the file gives the same result: the bytes under the name, nothing else
    /// in the folder, and a second file of the name left as the first wrote it.
    @Test(arguments: [UnnamedFileLink.unknown, .emptyPath, .procPath, .unavailable])
    func createsOnceAndLeavesNothingBehind(linking: UnnamedFileLink) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/abcd.jpg"
        let bytes = [UInt8]((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let first = Result { () throws(FileError) in try AtomicFile.create(bytes, at: target, sync: true, linking: linking) }
        if linking == .emptyPath, case .failure(let error) = first, error.code == ENOENT || error.code == EPERM {
            // Before Linux 6.10 this way needs CAP_DAC_READ_SEARCH; `.unknown` then takes /proc's.
            print("skipped AT_EMPTY_PATH: \(error)")
            return
        }
        #expect(try first.get())
        #expect(FileManager.default.contents(atPath: target) == Data(bytes))
        #expect(try AtomicFile.create(Array("other".utf8), at: target, sync: false, linking: linking) == false)
        #expect(FileManager.default.contents(atPath: target) == Data(bytes), "the name's first file is kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["abcd.jpg"])
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o444 == 0o444 } == true, "readable like any other cache file")
    }

    @Test func aMissingFolderIsAnErrorNamingIt() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for linking in [UnnamedFileLink.unknown, .unavailable] {
            let error = failure { () throws(FileError) in
                try AtomicFile.create([1, 2, 3], at: folder + "/gone/abcd.jpg", sync: false, linking: linking)
            }
            #expect(error?.code == ENOENT)
            #expect(error?.path.hasPrefix(folder + "/gone") == true)
        }
    }

    private func failure(_ body: () throws(FileError) -> Bool) -> FileError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    /// Sixteen writers of one name at once: one writes it, every other finds it there, and no
    /// temp file stays.
    @Test func concurrentCreatorsOfOneNameAgree() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/same.png"
        let wrote = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 { group.addTask { (try? AtomicFile.create(Array("same".utf8), at: target, sync: false)) ?? false } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wrote == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["same.png"])
    }
}
