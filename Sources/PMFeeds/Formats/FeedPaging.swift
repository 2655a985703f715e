import Foundation

public enum FeedPaging {
    /// URL of the page after `paging`, or nil when done. Flickr: sets/replaces `page=`; Marvel:
    /// `offset=offset+count`, keeps `limit`; stops at `pages`/`total`, and when `itemsSoFar >= maxItems`
    /// or `pagesSoFar >= maxPages`. A page that returned nothing also stops, so a server that keeps
    /// announcing more than it delivers cannot keep us looping.
    public static func nextPageURL(after paging: Paging, current: URL, pagesSoFar: Int, maxPages: Int,
                                   itemsSoFar: Int, maxItems: Int) -> URL? {
        guard pagesSoFar < maxPages, itemsSoFar < maxItems else { return nil }
        switch paging {
        case .flickr(let page, let pages, let perPage, let total):
            guard page < pages, perPage > 0 else { return nil }
            if let total, page * perPage >= total { return nil }
            return replacingQuery(of: current, with: [("page", String(page + 1))])
        case .marvel(let offset, let limit, let total, let count):
            let next = offset + count
            guard count > 0, next < total else { return nil }
            return replacingQuery(of: current, with: [("offset", String(next)), ("limit", String(limit))])
        }
    }

    /// RFC 3986 unreserved characters: anything else in a value we add (`&`, `=`, `+`) is escaped.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Sets each named query item, dropping any earlier values of that name and keeping every other
    /// item byte for byte (no re-encoding of what the caller wrote).
    static func replacingQuery(of url: URL, with values: [(name: String, value: String)]) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let names = Set(values.map(\.name))
        var items = (components.percentEncodedQueryItems ?? []).filter { !names.contains($0.name) }
        items += values.map { URLQueryItem(name: $0.name, value: $0.value.addingPercentEncoding(withAllowedCharacters: unreserved)) }
        components.percentEncodedQueryItems = items
        return components.url
    }
}
