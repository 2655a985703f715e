import PMFeeds

/// What a manifest names in the content folders, read leniently: only the path fields. Verify
/// checks them against the storage; prune and verify keep what another writer's manifests name.
struct ManifestLinks {
    struct Files {
        var original: String?
        var thumbnail: String?
        var thumbnails: [String: String]?

        var paths: [String] { [original, thumbnail].compactMap { $0 } + (thumbnails ?? [:]).values }

        init(_ fields: JSONFields) throws(JSONFields.Invalid) {
            original = try fields.optionalString("original")
            thumbnail = try fields.optionalString("thumbnail")
            thumbnails = try fields.optionalStrings("thumbnails")
        }
    }

    struct Item {
        var id: String
        var files: Files
        var media: [Files]?

        /// The item's first image and its further ones.
        var paths: [String] { files.paths + (media ?? []).flatMap(\.paths) }

        init(_ fields: JSONFields) throws(JSONFields.Invalid) {
            id = try fields.string("id")
            files = try Files(fields)
            media = try fields.optionalArray("media")?.map { (value) throws(JSONFields.Invalid) in try Files(JSONFields(value)) }
        }
    }

    var image: Files?
    var items: [Item]

    var paths: [String] { (image?.paths ?? []) + items.flatMap(\.paths) }

    /// The manifest in `bytes`; nil when they are not one (not JSON, or a field of the wrong type).
    static func read(_ bytes: [UInt8]) -> ManifestLinks? {
        try? ManifestLinks(JSONFields(JSONValue.parse(bytes, skipping: unread)))
    }

    /// The text fields, most of a manifest's bytes: checked as JSON, never made into strings.
    private static let unread: Set<String> = [
        "title", "link", "description", "author", "tags", "published", "date_taken", "media_url",
        "status", "error", "warning", "warnings", "attribution", "etag", "last_modified", "updated_at",
    ]

    private init(_ fields: JSONFields) throws(JSONFields.Invalid) {
        image = try fields.optionalObject("image").map { (fields) throws(JSONFields.Invalid) in try Files(fields) }
        items = try fields.array("items").map { (value) throws(JSONFields.Invalid) in try Item(JSONFields(value)) }
    }
}
