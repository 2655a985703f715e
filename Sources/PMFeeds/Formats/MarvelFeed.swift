import Foundation

/// Marvel Comics API list responses (`/v1/public/characters`, comics, series, events, creators,
/// stories): the `code/status/attributionText/data{offset,limit,total,count,results}` envelope.
enum MarvelFeed {
    /// The path Marvel substitutes when it has no picture; we report it instead of mirroring it.
    static let placeholderSuffix = "image_not_available"

    static func parse(_ root: JSONValue) throws(FeedError) -> ParsedFeed {
        guard let data = root["data"], let results = data["results"]?.array else {
            // Errors come as `{"code": 409, "status": "…"}` or `{"code": "InvalidCredentials", "message": "…"}`.
            let code = root["code"]?.lenientString ?? "?"
            let message = root["message"]?.string ?? root["status"]?.string ?? "no message"
            throw FeedError("Marvel API error \(code): \(message)")
        }
        var collector = ItemCollector()
        let warnings = collector.warnings
        for (index, result) in results.enumerated() {
            collector.add(index: index, id: result["id"]?.lenientString) { () throws(ItemProblem) in
                try item(JSONItemReader(item: result, warnings: warnings))
            }
        }
        let paging = Paging.marvel(offset: data["offset"]?.lenientInt ?? 0, limit: data["limit"]?.lenientInt ?? results.count,
                                   total: data["total"]?.lenientInt ?? results.count,
                                   count: data["count"]?.lenientInt ?? results.count)
        return ParsedFeed(kind: .marvel, title: "Marvel \(collectionName(results))", link: nil,
                          attribution: root["attributionText"]?.string, items: collector.uniqueItems,
                          invalid: collector.invalid, paging: paging, warnings: collector.warnings.messages)
    }

    private static func item(_ reader: JSONItemReader) throws(ItemProblem) -> FeedItem {
        let id = try reader.requiredLenientString("id")
        // Characters have `name`, comics/series/events/stories `title`, creators `fullName`.
        let name = reader.optionalString("name"), titleField = reader.optionalString("title")
        let fullName = reader.optionalString("fullName")
        guard let title = name ?? titleField ?? fullName else {
            throw ItemProblem(reason: "none of \"name\", \"title\", \"fullName\" is present")
        }
        let description = reader.optionalString("description").map(FeedText.trimmingWhitespacesAndNewlines)
        let links = reader.optionalList("urls") ?? []
        var mediaURL: String?
        var noImageReason: String?
        if let path = reader.optionalString("thumbnail.path"), !path.isEmpty {
            if path.hasSuffix(placeholderSuffix) {
                noImageReason = "Marvel has no image for this \(noun(reader)) (image_not_available placeholder)"
            } else {
                let fileExtension = reader.optionalString("thumbnail.extension") ?? "jpg"
                mediaURL = path + "." + fileExtension
            }
        } else {
            noImageReason = "Marvel lists no thumbnail for this \(noun(reader))"
        }
        return FeedItem(
            id: id, title: title, link: links.first?["url"]?.string,
            published: reader.optionalString("modified").flatMap { FeedDate.parse($0) },
            description: description?.isEmpty == false ? description : nil,
            mediaURL: mediaURL, noImageReason: noImageReason)
    }

    /// `character`, `comic`, … from `resourceURI` (`…/v1/public/characters/1011334`).
    private static func noun(_ reader: JSONItemReader) -> String {
        guard let uri = reader.value("resourceURI")?.string, let url = URL(string: uri) else { return "item" }
        let components = url.pathComponents
        guard components.count >= 2 else { return "item" }
        let plural = components[components.count - 2]
        return plural.hasSuffix("s") ? String(plural.dropLast()) : plural
    }

    private static func collectionName(_ results: [JSONValue]) -> String {
        guard let uri = results.first?["resourceURI"]?.string, let url = URL(string: uri),
              url.pathComponents.count >= 2 else { return "results" }
        return url.pathComponents[url.pathComponents.count - 2]
    }
}
