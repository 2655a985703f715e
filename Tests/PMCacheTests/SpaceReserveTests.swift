import Foundation
import Testing
@testable import PMCache

/// The disk's reserve beside the index, in a temp folder (whose disk has room for it).
@Suite struct SpaceReserveTests {
    func makeLayout() throws -> CacheLayout {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-reserve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return CacheLayout(root: folder.path)
    }

    func allocatedBytes(_ path: String) -> Int {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_blocks) * 512 : 0
    }

    @Test func restoringAllocatesTheWholeReserveUnderItsNameAndLeavesNoTempFile() throws {
        let layout = try makeLayout()
        let reserve = SpaceReserve(layout: layout, bytes: 256 << 10)
        #expect(!reserve.isInPlace)
        #expect(reserve.restoreIfRoom())
        #expect(reserve.isInPlace)
        #expect(allocatedBytes(layout.reservePath) >= 256 << 10, "allocated blocks, not a sparse file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.root) == [CacheLayout.reserveFile])
    }

    @Test func aReserveCutShortIsNotInPlaceAndIsMadeWholeAgain() throws {
        let layout = try makeLayout()
        let reserve = SpaceReserve(layout: layout, bytes: 256 << 10)
        _ = FileManager.default.createFile(atPath: layout.reservePath, contents: Data(count: 10))
        #expect(!reserve.isInPlace)
        #expect(reserve.restoreIfRoom())
        #expect(reserve.isInPlace)
    }

    @Test func itsSizeFollowsTheIndexWithinBounds() {
        #expect(SpaceReserve.bytes(forIndexBytes: 0) == 256 << 10)
        #expect(SpaceReserve.bytes(forIndexBytes: 100_000) == 256 << 10, "a small index: the minimum")
        #expect(SpaceReserve.bytes(forIndexBytes: 300_000) == 1 << 20, "600 000 bytes: the next step up")
        #expect(SpaceReserve.bytes(forIndexBytes: 1 << 30) == 4 << 20)
    }

    @Test func releasingDeletesItOnlyWhenTheDiskIsShort() throws {
        let layout = try makeLayout()
        let reserve = SpaceReserve(layout: layout, bytes: 256 << 10)
        reserve.restoreIfRoom()
        #expect(!reserve.releaseIfShort(), "the temp folder's disk has room")
        #expect(reserve.isInPlace)
        // A reserve larger than the disk's free space: the disk is short of it.
        let huge = SpaceReserve(layout: layout, bytes: Int.max / 2)
        #expect(huge.diskIsShort)
        #expect(huge.releaseIfShort())
        #expect(!FileManager.default.fileExists(atPath: layout.reservePath))
        #expect(!huge.restoreIfRoom(), "no room for it twice over")
    }
}
