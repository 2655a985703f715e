import Foundation

/// Keeps secrets out of messages and stored URLs: Marvel signing parameters are removed.
enum Redaction {
    static let secretParameters: Set<String> = ["apikey", "hash", "ts"]

    static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let items = components.queryItems, items.contains(where: { secretParameters.contains($0.name) })
        else { return url.absoluteString }
        let kept = items.filter { !secretParameters.contains($0.name) }
        components.queryItems = kept.isEmpty ? nil : kept
        return components.url?.absoluteString ?? url.absoluteString
    }
}
