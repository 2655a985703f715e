/// A feed's items as its documents take them, for a caller that has just read and settled them
/// (a sync's `SettlingRows`): only the files and validators of their images are looked up.
extension PhotoIndex {
    /// `feedItems(feedKey:rowids:)` for `items` as stored: statuses derived from their images'
    /// files (the further images' too), the files of every image they name, the validators of
    /// their media URLs; without reading the items' rows again.
    public func feedItems(settled items: [ItemRecord]) throws(IndexError) -> FeedItems {
        var page = FeedItems()
        page.files = try imageFiles(of: Array(Set(items.lazy.flatMap(\.allMedia).compactMap(\.sha256))))
        page.validators = try validators(of: items.flatMap(\.allMedia))
        page.items = items.map { item in
            var item = item
            item.status = Self.status(item.status, sha256: item.sha256, files: item.sha256.flatMap { page.files[$0] })
            for index in item.moreMedia.indices {
                let media = item.moreMedia[index]
                item.moreMedia[index].status = Self.status(media.status, sha256: media.sha256,
                                                           files: media.sha256.flatMap { page.files[$0] })
            }
            return item
        }
        return page
    }

    /// The files of each image, as the documents name them; every hash has an entry, empty when
    /// the index holds no file of it. Only the columns the documents show are read (`files(of:)`
    /// reads whole records, twice the time for a feed's 1000 images).
    private func imageFiles(of hashes: [String]) throws(IndexError) -> [String: ImageFiles] {
        var files: [String: ImageFiles] = [:]
        guard !hashes.isEmpty else { return files }
        files.reserveCapacity(hashes.count)
        for sha256 in hashes { files[sha256] = ImageFiles(original: nil, thumbnails: [:]) }
        let list = JSONStringList.encode(hashes)
        let originals = try connection.statement("""
            SELECT j.key, o.path, o.warning, o.placeholder FROM json_each(?) j CROSS JOIN originals o ON o.sha256 = j.value
            """)
        try originals.bind(.text(list))
        while try originals.step() {
            let sha256 = hashes[originals.int(0)]
            files[sha256]?.original = originals.text(1)
            files[sha256]?.warning = originals.text(2)
            files[sha256]?.placeholder = originals.text(3)
        }
        let thumbnails = try connection.statement("""
            SELECT j.key, t.size FROM json_each(?) j CROSS JOIN thumbnails t ON t.original_sha256 = j.value
            """)
        try thumbnails.bind(.text(list))
        while try thumbnails.step() {
            let sha256 = hashes[thumbnails.int(0)]
            guard let size = thumbnails.text(1) else { continue }
            files[sha256]?.thumbnails[size] = CacheLayout.thumbnailPath(originalSHA256: sha256, size: size)
        }
        return files
    }

    /// The validators each media URL's bytes were fetched with, for the URLs whose row still
    /// names the image `media` gives them.
    private func validators(of media: [MediaRecord]) throws(IndexError) -> [String: MediaValidators] {
        let named = media.filter { $0.sha256 != nil }
        var found: [String: MediaValidators] = [:]
        guard !named.isEmpty else { return found }
        let query = try connection.statement("""
            SELECT j.key, r.sha256, r.etag, r.last_modified FROM json_each(?) j
            CROSS JOIN resources r ON r.url = j.value
            WHERE r.etag IS NOT NULL OR r.last_modified IS NOT NULL
            """)
        try query.bind(.text(JSONStringList.encode(named.map(\.url))))
        while try query.step() {
            let media = named[query.int(0)]
            guard query.text(1) == media.sha256, let validators = MediaValidators(etag: query.text(2), lastModified: query.text(3))
            else { continue }
            found[media.url] = validators
        }
        return found
    }
}
