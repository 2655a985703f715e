import Foundation
import PMCache
import PMImaging
import PMLoading
import PMSupport

/// Mirrors one media URL: reuse what the index has, else download, check, thumbnail and store.
/// Network waits happen on the curl loop thread; decoding and file writes on the blocking pool;
/// index writes on the index actor — the cooperative pool only coordinates.
struct MediaPipeline: Sendable {
    let loader: any HTTPLoading
    let index: PhotoIndex
    let store: BlobStore
    let pool: BlockingPool
    let options: SyncOptions

    func mirror(_ url: String) async -> MediaOutcome {
        do {
            let now = Date().timeIntervalSince1970
            if let cached = try await index.media(for: url) {
                // Reused only whole: an item whose original was evicted (status `evicted-original`)
                // is listed again, so it is wanted again and is downloaded like a new one.
                if cached.original != nil, options.sizes.allSatisfy({ cached.thumbnails[$0.description] != nil }) {
                    if options.revalidate { return try await Revalidation(pipeline: self).revalidate(url, cached: cached, now: now) }
                    try await index.touch(url: url, sha256: cached.sha256, at: now)
                    return .stored(sha256: cached.sha256, downloaded: false, bytes: 0)
                }
                if let original = cached.original, let outcome = try await rethumbnail(url: url, original: original, cached: cached, now: now) {
                    return outcome
                }
            }
            return try await download(url, now: now)
        } catch let failure as MediaFailure {
            return .failed(reason: failure.reason)
        } catch {
            if let fatal = CacheWriteFailure.endsTheSync(error) { return .aborted(reason: fatal) }
            return .failed(reason: "\(error)")
        }
    }

    private func download(_ url: String, now: Double) async throws -> MediaOutcome {
        try MediaURLPolicy.check(url)
        let response = try await loader.fetch(request(for: url))
        return try await store(response, url: url, now: now)
    }

    func request(for url: String) -> HTTPRequest {
        var request = HTTPRequest(url: url)
        request.timeout = options.timeout
        request.stallTimeout = options.stallTimeout
        request.maxBytes = options.maxBytes
        return request
    }

    /// Checks a fetched body, writes its thumbnails and original, then records the rows.
    func store(_ response: HTTPResponse, url: String, now: Double) async throws -> MediaOutcome {
        try ResponseCheck.validate(response)
        let files = try await pool.run { [store, options] in
            try ImageStorer(store: store, sizes: options.sizes, maxPixels: options.maxPixels)
                .storeDownloaded(response.body, sha256: response.sha256, now: now)
        }
        let resource = ResourceRecord(
            url: url, sha256: response.sha256, etag: response.etag, lastModified: response.lastModified,
            contentType: response.contentType, fetchedAt: now, lastAccess: now)
        try await index.record(resource: resource, original: files.original, thumbnails: files.thumbnails)
        return .stored(sha256: response.sha256, downloaded: true, bytes: response.body.count)
    }

    /// Makes missing thumbnail sizes from the stored original, with no network request.
    /// Returns nil when the original's file is gone, so the caller downloads again.
    private func rethumbnail(url: String, original: OriginalRecord, cached: CachedMedia, now: Double) async throws -> MediaOutcome? {
        let files = try await pool.run { [store, options] () -> StoredFiles? in
            guard let bytes = try? store.read(original.path) else { return nil }
            return try ImageStorer(store: store, sizes: options.sizes, maxPixels: options.maxPixels)
                .storeThumbnails(of: bytes, sha256: original.sha256, now: now)
        }
        guard let files else { return nil }
        try await index.record(
            resource: ResourceRecord(url: url, sha256: original.sha256, etag: cached.etag, lastModified: cached.lastModified,
                                     contentType: nil, fetchedAt: now, lastAccess: now),
            original: nil, thumbnails: files.thumbnails)
        return .stored(sha256: original.sha256, downloaded: false, bytes: 0)
    }
}

/// A reason an item failed, worded for a person.
struct MediaFailure: Error, Sendable {
    let reason: String
}
