extension FeedKind {
    /// Whether a stored ETag/Last-Modified may be sent for this kind's URL and a 304 taken to mean
    /// the whole feed is unchanged. Not for paged APIs: the validators are page 1's, and a 304
    /// for page 1 says nothing about the other pages. Spelled out per kind so that a new format
    /// has to decide.
    public var allowsConditionalFetch: Bool {
        switch self {
        case .flickrSearch, .marvel: false
        case .flickrPublic, .rss, .atom, .jsonFeed: true
        }
    }
}
