/// What a manifest names in the content folders, read leniently: only the path fields. Verify
/// checks them against the storage; prune and verify keep what another writer's manifests name.
struct ManifestLinks: Decodable {
    struct Files: Decodable {
        var original: String?
        var thumbnail: String?
        var thumbnails: [String: String]?

        var paths: [String] { [original, thumbnail].compactMap { $0 } + (thumbnails ?? [:]).values }
    }

    struct Item: Decodable {
        var id: String
        var original: String?
        var thumbnail: String?
        var thumbnails: [String: String]?
        var media: [Files]?

        /// The item's first image and its further ones.
        var paths: [String] {
            [original, thumbnail].compactMap { $0 } + (thumbnails ?? [:]).values + (media ?? []).flatMap(\.paths)
        }
    }

    var image: Files?
    var items: [Item]

    var paths: [String] { (image?.paths ?? []) + items.flatMap(\.paths) }
}
