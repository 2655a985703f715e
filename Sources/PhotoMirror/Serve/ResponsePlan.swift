/// What to answer for a request, decided without touching a socket or a disk: the status,
/// the headers and which bytes of the file (if any) make the body.
public struct ResponsePlan: Equatable, Sendable {
    public enum Body: Equatable, Sendable {
        case none
        case file(offset: Int, length: Int)
        case text(String)
    }

    public var status: Int
    public var headers: [Header]
    public var body: Body

    public struct Header: Equatable, Sendable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public static let immutable = "public, max-age=31536000, immutable"
    /// Pages and manifests change with every sync: a minute keeps reloads cheap without
    /// showing a stale gallery for long.
    public static let shortLived = "public, max-age=60"

    /// The facts about a resolved file that the answer depends on.
    public struct File: Equatable, Sendable {
        public var relativePath: String
        public var contentType: String
        public var size: Int
        public var modifiedNanoseconds: Int
        public init(relativePath: String, contentType: String, size: Int, modifiedNanoseconds: Int) {
            self.relativePath = relativePath; self.contentType = contentType
            self.size = size; self.modifiedNanoseconds = modifiedNanoseconds
        }
    }

    /// A GET or HEAD of a served file. `range` and `ifRange` are the request headers.
    public static func forFile(_ file: File, conditions: RequestConditions, range: String?, ifRange: String?) -> ResponsePlan {
        let tag = EntityTag.of(relativePath: file.relativePath, size: file.size,
                               modifiedNanoseconds: file.modifiedNanoseconds)
        let modifiedSeconds = file.modifiedNanoseconds / 1_000_000_000
        let lastModified = LastModified.header(seconds: modifiedSeconds)
        let caching = ServedFiles.isContentAddressed(file.relativePath) ? immutable : shortLived
        var headers = [Header("ETag", tag), Header("Last-Modified", lastModified), Header("Cache-Control", caching)]
        switch conditions.evaluate(tag: tag, modifiedSeconds: modifiedSeconds) {
        case .preconditionFailed: return error(412, "Precondition Failed")
        case .notModified: return ResponsePlan(status: 304, headers: headers, body: .none)
        case .proceed: break
        }
        headers += [Header("Content-Type", file.contentType), Header("Accept-Ranges", "bytes"),
                    Header("X-Content-Type-Options", "nosniff")]
        // A range is only for the representation the client already has part of, named by
        // its tag or its exact Last-Modified date.
        let rangeApplies = ifRange.map { [tag, lastModified].contains($0.trimmingCharacters(in: .whitespaces)) } ?? true
        switch ByteRange.parse(rangeApplies ? range : nil, size: file.size) {
        case .whole:
            return ResponsePlan(status: 200, headers: headers, body: .file(offset: 0, length: file.size))
        case .part(let offset, let length):
            headers.append(Header("Content-Range", "bytes \(offset)-\(offset + length - 1)/\(file.size)"))
            return ResponsePlan(status: 206, headers: headers, body: .file(offset: offset, length: length))
        case .unsatisfiable:
            // Nothing of the file is sent, so nothing about it is cacheable.
            return ResponsePlan(status: 416, headers: [Header("Content-Range", "bytes */\(file.size)"),
                                                       Header("Accept-Ranges", "bytes"), Header("Cache-Control", "no-store")],
                                body: .none)
        }
    }

    public static func notFound() -> ResponsePlan { error(404, "Not Found") }

    /// An HTTP/1.1 request without `Host` (RFC 9112 §3.2).
    public static func badRequest() -> ResponsePlan { error(400, "Bad Request") }

    public static func methodNotAllowed() -> ResponsePlan {
        var plan = error(405, "Method Not Allowed")
        plan.headers.append(Header("Allow", "GET, HEAD"))
        return plan
    }

    /// A folder asked for without its trailing slash: the page's relative links need it.
    public static func redirect(to location: String) -> ResponsePlan {
        var plan = error(301, "Moved Permanently")
        plan.headers.append(Header("Location", location))
        return plan
    }

    private static func error(_ status: Int, _ reason: String) -> ResponsePlan {
        ResponsePlan(status: status, headers: [Header("Content-Type", "text/plain; charset=utf-8"),
                                               Header("Cache-Control", "no-store")],
                     body: .text("\(status) \(reason)\n"))
    }
}
