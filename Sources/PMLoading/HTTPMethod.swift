/// The methods the loader sends. HEAD asks for headers only (libcurl's NOBODY); PUT and POST
/// carry `HTTPRequest.body`.
public enum HTTPMethod: String, Sendable, Equatable {
    case get = "GET"
    case head = "HEAD"
    case put = "PUT"
    case post = "POST"
    case delete = "DELETE"

    /// True for the methods that send a request body.
    var sendsBody: Bool { self == .put || self == .post }
}
