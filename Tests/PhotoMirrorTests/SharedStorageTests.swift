import Foundation
import Testing
@testable import PMCache
@testable import PhotoMirror

/// The rules of a storage other writers share: garbage's grace period, what one writer owns,
/// and heartbeats' liveness.
@Suite struct SharedStorageTests {
    let hashA = String(repeating: "a", count: 64), hashB = String(repeating: "b", count: 64)
    var originalA: String { "originals/aa/\(hashA).jpg" }
    var originalB: String { "originals/bb/\(hashB).jpg" }
    var thumbnailA: String { "thumbs/40x40/aa/\(hashA).png" }

    func scan(modified: [String: Double] = [:]) -> DiskScan {
        DiskScan(objects: [(originalA, 100), (thumbnailA, 10), (originalB, 1000), ("index.html", 5), ("favicon.svg", 1),
                           ("feeds/mine/manifest.json", 20), ("feeds/theirs/manifest.json", 30), ("writers/x.json", 2)],
                 modified: modified)
    }

    @Test func garbageGoesOnlyOnceItIsOlderThanTheGracePeriod() {
        let shared = SharedStorage(isShared: true, grace: 3600)
        let listed = scan(modified: [originalA: 1000, originalB: 5000])
        let garbage = [CachedFile(path: CachePath(originalA), diskBytes: 100), CachedFile(path: CachePath(originalB), diskBytes: 1000),
                       CachedFile(path: CachePath(thumbnailA), diskBytes: 10)]
        // B is younger than an hour; the thumbnail's time is unknown, so it is kept too.
        #expect(shared.collectable(garbage, scan: listed, now: 4600).map(\.path.description) == [originalA])
        #expect(SharedStorage(isShared: false, grace: 3600).collectable(garbage, scan: listed, now: 0) == garbage)
    }

    @Test func aWriterOwnsWhatItsRowsNameItsFeedsFilesAndTheRootPages() {
        let shared = SharedStorage(isShared: true, grace: 3600)
        var images = EvictionImages()
        images.addOriginal(ImageHash(hashA), path: CachePath(originalA), lastAccess: 0)
        images.addThumbnail(ImageHash(hashA), size: "40x40", lastAccess: 0)
        let (owned, others) = shared.owned(scan(), images: images, ownFeedKeys: ["mine"], collectable: [])
        #expect(Set(owned.files.keys.map(\.description))
            == [originalA, thumbnailA, "index.html", "favicon.svg", "feeds/mine/manifest.json"])
        #expect(owned.usage == 136)
        #expect(others == 1032)
        let withGarbage = shared.owned(scan(), images: images, ownFeedKeys: ["mine"],
                                       collectable: [CachedFile(path: CachePath(originalB), diskBytes: 1000)])
        #expect(withGarbage.scan.usage == 1136)
        #expect(SharedStorage(isShared: false, grace: 0).owned(scan(), images: EvictionImages(), ownFeedKeys: [], collectable: []).othersBytes == 0)
    }

    @Test func aHeartbeatIsLiveUntilItIsFiveMinutesOld() throws {
        let beat = WriterHeartbeat(id: "x", command: "sync", started: 0, refreshed: 1000)
        #expect(beat.isLive(at: 1000 + WriterHeartbeat.liveFor - 1))
        #expect(!beat.isLive(at: 1000 + WriterHeartbeat.liveFor))
        let decoded = try JSONDecoder().decode(WriterHeartbeat.self, from: Data(#"{"id":"x","command":"sync","started":0,"refreshed":1000}"#.utf8))
        #expect(decoded == beat)
        #expect(decoded.deleting == nil)
    }
}
