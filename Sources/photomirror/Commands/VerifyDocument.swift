import Foundation
import PhotoMirror

/// `verify --json` (docs/json.md): what was checked and found, and with `--repair` what was
/// done and what verify finds after.
enum VerifyDocument {
    static func fields(_ report: VerifyReport) -> [String: Any] {
        [
            "healthy": report.isHealthy,
            "totals": ["files": report.checkedFiles, "manifests": report.checkedManifests, "json_feeds": report.checkedJSONFeeds,
                       "pages": report.checkedPages, "damaged": report.damage.count, "garbage": report.garbage.count,
                       "stale": report.stale.count],
            "damage": report.damage, "garbage": report.garbage, "stale": report.stale,
        ]
    }

    static func json(_ report: VerifyReport, cache: String, started: Date) -> String {
        var fields = fields(report)
        fields["cache"] = cache
        fields["repair"] = NSNull()
        return JSONDocument.encode(JSONEnvelope(command: "verify", started: started), fields)
    }

    static func json(_ result: Repairer.Result, cache: String, started: Date) -> String {
        var fields = fields(result.found)
        fields["cache"] = cache
        var rebuilt: Any = NSNull()
        if let rebuild = result.rebuilt {
            rebuilt = ["feeds": rebuild.feeds, "items": rebuild.items, "originals": rebuild.originals,
                       "thumbnails": rebuild.thumbnails, "media_urls": rebuild.mediaURLs,
                       "kept_as": rebuild.keptAs ?? NSNull(), "skipped": rebuild.skipped,
                       "duration_seconds": JSONTime.seconds(rebuild.seconds)] as [String: Any]
        }
        fields["repair"] = [
            "rows_dropped": result.rowsDropped, "files_deleted": result.filesDeleted,
            "manifests_rewritten": result.manifestsRewritten, "feeds_adopted": result.feedsAdopted,
            "failures": result.failures, "rebuilt": rebuilt, "after": Self.fields(result.after),
        ] as [String: Any]
        return JSONDocument.encode(JSONEnvelope(command: "verify", started: started), fields)
    }
}
