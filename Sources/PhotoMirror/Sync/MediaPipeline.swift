import Foundation
import PMCache
import PMImaging
import PMLoading
import PMSupport

/// Mirrors one media URL: reuse what the index has, else download, check, thumbnail and store.
/// Network waits happen on the curl loop thread; decoding on the codec pool; file writes in the
/// storage (off the cooperative pool); index writes on the index actor — the cooperative pool
/// only coordinates.
///
/// `mirror` returns the index write that records its files instead of making it: the engine
/// applies writes in batches (one transaction per batch), always after the files are in place.
struct MediaPipeline: Sendable {
    /// Image requests: retried, polite to each host, and through `gate` (see `GatedLoader`).
    let loader: any HTTPLoading
    let index: PhotoIndex
    let storage: any CacheStorage
    /// The codec threads.
    let pool: BlockingPool
    let loading: LoadingOptions
    let imaging: ImagingOptions
    /// Bounds the transfers in flight and the downloaded bodies waiting for `pool`.
    let gate: DownloadGate
    /// The time of every row it writes.
    var clock = SyncClock()
    /// The addresses its requests may reach: its feed's (`StagedFeed.addressHome`).
    var addressRule: AddressRule?

    /// What the engine already read from the index for a URL (one query for the whole sync).
    enum CacheLookup: Sendable {
        /// `fetchedAt`: when the URL's bytes were downloaded, which new thumbnails of them keep.
        case found(CachedMedia, fetchedAt: Double? = nil)
        case absent
        /// The batch lookup failed: `mirror` asks the index itself.
        case notLookedUp
    }

    /// An outcome and the index write (if any) that makes it durable.
    struct Finished: Sendable {
        var outcome: MediaOutcome
        var write: PhotoIndex.MediaWrite?
        /// The image this sync decoded was damaged; its thumbnails show what decodes.
        var warning: String? = nil
    }

    func mirror(_ url: String, lookup: CacheLookup = .notLookedUp) async -> Finished {
        do {
            let now = clock.now()
            let known: CachedMedia?
            var fetchedAt: Double?
            switch lookup {
            case .found(let media, let fetched): (known, fetchedAt) = (media, fetched)
            case .absent: known = nil
            case .notLookedUp: known = try await index.media(for: url)
            }
            if let cached = known {
                if let reused = reuse(url, cached: cached, now: now) { return reused }
                if isWhole(cached) {
                    return Finished(outcome: try await Revalidation(pipeline: self).revalidate(url, cached: cached, now: now))
                }
                if let kept = keepEvicted(url, cached: cached, now: now) { return kept }
                if let original = cached.original, let result = try await rethumbnail(url: url, original: original, cached: cached,
                                                                                 fetchedAt: fetchedAt, now: now) {
                    return result
                }
            }
            return try await download(url, now: now)
        } catch let failure as MediaFailure {
            return Finished(outcome: .failed(reason: failure.reason))
        } catch {
            if let fatal = CacheWriteFailure.endsTheSync(error) { return Finished(outcome: .aborted(reason: fatal)) }
            return Finished(outcome: .failed(reason: "\(error)"))
        }
    }

    /// The outcome of a URL whose image the cache holds whole, when no request is needed
    /// (no `--revalidate`): only its last access is recorded. Nil when the URL needs work.
    func reuse(_ url: String, cached: CachedMedia, now: Double) -> Finished? {
        guard isWhole(cached), !loading.revalidateMedia else { return nil }
        return Finished(outcome: .stored(sha256: cached.sha256, downloaded: false, bytes: 0),
                        write: .touch(url: url, sha256: cached.sha256, at: now))
    }

    /// An image a prune evicted, its original or all of it, is left so by a plain sync: no
    /// request, only its last access. Fetched again only when something needs the original: a
    /// thumbnail size it lacks while it still has others (a new `--size`), `--revalidate`, or
    /// `--refetch-evicted`. Nil when it is to be fetched.
    func keepEvicted(_ url: String, cached: CachedMedia, now: Double) -> Finished? {
        guard cached.original == nil, !loading.revalidateMedia, !loading.refetchEvicted else { return nil }
        let hasEverySize = imaging.sizes.allSatisfy { cached.thumbnails[$0.description] != nil }
        guard hasEverySize || cached.thumbnails.isEmpty else { return nil }
        return Finished(outcome: .stored(sha256: cached.sha256, downloaded: false, bytes: 0),
                        write: .touch(url: url, sha256: cached.sha256, at: now))
    }

    /// Reused whole: the original and a thumbnail of each size are stored.
    private func isWhole(_ cached: CachedMedia) -> Bool {
        cached.original != nil && imaging.sizes.allSatisfy { cached.thumbnails[$0.description] != nil }
    }

    private func download(_ url: String, now: Double) async throws -> Finished {
        try MediaURLPolicy.check(url)
        let response: HTTPResponse
        do {
            response = try await loader.fetch(request(for: url))
        } catch let stopped as RetryStopped {
            throw MediaFailure(retryStopped: stopped)
        }
        return try await using(response) {
            if let skip = try skipped(response) { return Finished(outcome: .skipped(reason: skip)) }
            return try await storeFiles(response, url: url, now: now, minPixels: loading.minPixels)
        }
    }

    /// Why an image that answered well is left out (`--min-bytes`); nil to store it.
    private func skipped(_ response: HTTPResponse) throws -> String? {
        guard let minimum = loading.minBytes, response.body.count < minimum else { return nil }
        try ResponseCheck.validate(response)
        return "skipped: \(response.body.count) bytes, under --min-bytes \(minimum)"
    }

    /// Runs `work` on a fetched response, then tells `gate` its body no longer waits (when the
    /// gate counted it: see `DownloadGate.holdsBody`).
    func using<Result>(_ response: HTTPResponse, _ work: () async throws -> Result) async throws -> Result {
        let counted = DownloadGate.holdsBody(response)
        do {
            let result = try await work()
            if counted { await gate.decoded() }
            return result
        } catch {
            if counted { await gate.decoded() }
            throw error
        }
    }

    func request(for url: String) -> HTTPRequest {
        var request = HTTPRequest(url: url)
        request.timeout = loading.timeout
        request.stallTimeout = loading.stallTimeout
        request.maxBytes = loading.maxBytes
        request.addressRule = addressRule
        return request
    }

    /// Checks a fetched body, writes its thumbnails and original, then records the rows.
    func store(_ response: HTTPResponse, url: String, now: Double) async throws -> MediaOutcome {
        let result = try await storeFiles(response, url: url, now: now)
        if let write = result.write { try await index.apply([write]) }
        return result.outcome
    }

    /// `store` without the index write, which it returns for the caller's batch. A download
    /// under `minPixels` (checked on the codec pool, from its header) is skipped, nothing stored.
    private func storeFiles(_ response: HTTPResponse, url: String, now: Double,
                            minPixels: PixelSize? = nil) async throws -> Finished {
        try ResponseCheck.validate(response)
        let files: StoredFiles
        do {
            files = try await made {
                try ImageStorer(sizes: $0.sizes, maxPixels: $0.maxPixels, minPixels: minPixels)
                    .downloaded(response.body, sha256: response.sha256, now: now)
            }
        } catch let skip as MediaSkip {
            return Finished(outcome: .skipped(reason: skip.reason))
        }
        let resource = ResourceRecord(
            url: url, sha256: response.sha256, etag: response.etag, lastModified: response.lastModified,
            contentType: response.contentType, fetchedAt: now, lastAccess: now)
        return Finished(outcome: .stored(sha256: response.sha256, downloaded: true, bytes: response.body.count),
                        write: .record(resource: resource, original: files.original, thumbnails: files.thumbnails),
                        warning: files.warning)
    }

    /// Makes missing thumbnail sizes from the stored original, with no network request; the URL
    /// keeps the time its bytes were fetched (when known), so the sync counts it as reused.
    /// Returns nil when the original's file is gone, so the caller downloads again.
    private func rethumbnail(url: String, original: OriginalRecord, cached: CachedMedia, fetchedAt: Double?,
                             now: Double) async throws -> Finished? {
        guard let bytes = try? await storage.read(original.path) else { return nil }
        let files = try await made {
            try ImageStorer(sizes: $0.sizes, maxPixels: $0.maxPixels).thumbnails(of: bytes, sha256: original.sha256, now: now)
        }
        let resource = ResourceRecord(url: url, sha256: original.sha256, etag: cached.etag, lastModified: cached.lastModified,
                                      contentType: nil, fetchedAt: fetchedAt ?? now, lastAccess: now)
        return Finished(outcome: .stored(sha256: original.sha256, downloaded: false, bytes: 0),
                        write: .record(resource: resource, original: nil, thumbnails: files.thumbnails,
                                       placeholder: files.placeholder),
                        warning: files.warning)
    }
}

extension MediaPipeline {
    /// Makes files on the codec pool and stores them: on the same codec thread when the storage
    /// writes with blocking calls, saving a hop to its threads and back per image.
    private func made(_ make: @escaping @Sendable (ImagingOptions) throws -> StoredFiles) async throws -> StoredFiles {
        let writer = storage.blockingContent
        let files = try await pool.run { [imaging] in
            let files = try make(imaging)
            try writer?.putContentNow(files.files)
            return files
        }
        if writer == nil { try await storage.putContent(files.files) }
        return files
    }
}

/// Why a download is left out on purpose (`--min-pixels`), worded for a person: not a failure.
struct MediaSkip: Error, Sendable {
    let reason: String
}

/// A reason an item failed, worded for a person.
struct MediaFailure: Error, Sendable {
    let reason: String

    init(reason: String) {
        self.reason = reason
    }

    /// The image's own last outcome (its status, as `ResponseCheck` words it, or its transfer
    /// error), then the host pause that kept it from being tried again.
    init(retryStopped stopped: RetryStopped) {
        var reason = stopped.description
        if let response = stopped.response {
            do {
                try ResponseCheck.validate(response)
            } catch {
                reason = "\(error.reason); \(RetryStopped.notRetried(stopped.stop))"
            }
        }
        self.reason = reason
    }
}
