import PMCache
import PMLoading

/// `sync --revalidate` for a media URL the cache holds whole: ask the server with the stored
/// validators. 304 keeps the files and refreshes the access time; 200 with other bytes stores
/// the new original and thumbnails and repoints the URL (and so its items) at them. A server
/// that fails to answer, or answers with something that is not an image, leaves the cached
/// copy in place: a mirror keeps what it has.
struct Revalidation {
    let pipeline: MediaPipeline

    func revalidate(_ url: String, cached: CachedMedia, now: Double) async throws -> MediaOutcome {
        var request = pipeline.request(for: url)
        request.addConditions(etag: cached.etag, lastModified: cached.lastModified)
        guard let response = try? await pipeline.loader.fetch(request) else { return try await keep(url, cached: cached, now: now) }
        return try await pipeline.using(response) { try await answer(response, url: url, cached: cached, now: now) }
    }

    private func answer(_ response: HTTPResponse, url: String, cached: CachedMedia, now: Double) async throws -> MediaOutcome {
        guard response.status == 200 || response.status == 304 else { return try await keep(url, cached: cached, now: now) }
        if response.status == 304 {
            return try await keep(url, cached: cached, now: now, validators: response)
        }
        if response.sha256 == cached.sha256 {
            try await remember(url, cached: cached, validators: response, now: now)
            return .stored(sha256: cached.sha256, downloaded: true, bytes: response.body.count)
        }
        do {
            return try await pipeline.store(response, url: url, now: now)
        } catch is MediaFailure {
            return try await keep(url, cached: cached, now: now)
        }
    }

    private func keep(_ url: String, cached: CachedMedia, now: Double, validators: HTTPResponse? = nil) async throws -> MediaOutcome {
        try await pipeline.index.touch(url: url, sha256: cached.sha256, at: now)
        // A 304 may carry fresher validators; keep them for the next revalidation.
        if let validators, validators.etag ?? cached.etag != cached.etag
            || validators.lastModified ?? cached.lastModified != cached.lastModified {
            try await remember(url, cached: cached, validators: validators, now: now)
        }
        return .stored(sha256: cached.sha256, downloaded: false, bytes: 0)
    }

    private func remember(_ url: String, cached: CachedMedia, validators: HTTPResponse, now: Double) async throws {
        let sha256 = cached.sha256
        let resource = ResourceRecord(url: url, sha256: sha256, etag: validators.etag ?? cached.etag,
                                      lastModified: validators.lastModified ?? cached.lastModified,
                                      contentType: validators.contentType, fetchedAt: now, lastAccess: now)
        try await pipeline.index.record(resource: resource, original: nil, thumbnails: [])
        try await pipeline.index.touch(url: url, sha256: sha256, at: now)
    }
}
