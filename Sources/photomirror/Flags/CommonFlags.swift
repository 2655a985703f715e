/// Flags several commands share with one meaning.
extension Flag {
    static let cache = Flag(
        name: "cache", placeholder: "DIR", kind: .directory, summary: "cache folder",
        help: "cache folder (see `photomirror help`)")
    static let json = Flag(
        name: "json", kind: .toggle, summary: "print JSON on stdout",
        help: "print a JSON summary on stdout")
    static let quiet = Flag(
        name: "quiet", short: "q", kind: .toggle, summary: "print nothing but errors",
        help: "print nothing but errors")
    static let store = Flag(
        name: "store", placeholder: "s3://BUCKET[/PREFIX]", kind: .text, summary: "keep the cache's files in an S3 bucket",
        help: "keep the cache's images, pages and manifests in an S3 (or S3-compatible) bucket under PREFIX instead of the "
            + "cache folder, which keeps only the index, its sidecar and the lock; default: \"store\" in <cache>/config.json. "
            + "Credentials from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), the region from "
            + "AWS_REGION (default us-east-1), an endpoint from AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL (path-style; "
            + "AWS's own virtual-host style without one). The bucket is created when missing. The first sync records it "
            + "as \"store\" in <cache>/config.json and every later command uses it; a different --store is refused (exit 2)")
    static let moveStore = Flag(
        name: "move-store", kind: .toggle, summary: "move the cache's files to --store, then sync",
        help: "move the cache to the --store given: copy its published files (originals, thumbnails, manifests, JSON "
            + "Feeds, pages) from the store config.json records, or from the folder, then record the new store; the "
            + "old one is left as it was. The index then describes the copies")
    static let wait = Flag(
        name: "wait", placeholder: "SECONDS", kind: .secondsOrZero, summary: "how long to wait for another writer's lock",
        help: "how long to wait for another writer's lock (default 5)")
}
