import PMFeeds

/// The members of a JSON object read back as a typed `Decodable` would read them: a missing or
/// `null` optional member is nil, a member of the wrong type makes the whole document invalid.
/// For photomirror's own files (manifests, JSON Feeds), parsed once by the feeds' JSON reader,
/// which is several times faster than `JSONDecoder` over a manifest of 2000 items.
struct JSONFields {
    struct Invalid: Error {}

    let object: JSONObject

    init(_ value: JSONValue?) throws(Invalid) {
        guard let object = value?.object else { throw Invalid() }
        self.object = object
    }

    func string(_ key: String) throws(Invalid) -> String {
        guard let value = try optionalString(key) else { throw Invalid() }
        return value
    }

    func optionalString(_ key: String) throws(Invalid) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw Invalid()
        }
    }

    /// An object whose every member is a string (`thumbnails`).
    func optionalStrings(_ key: String) throws(Invalid) -> [String: String]? {
        switch object[key] {
        case nil, .null?: return nil
        case .object(let members)?:
            var strings: [String: String] = [:]
            for member in members.members {
                guard case .string(let value) = member.value else { throw Invalid() }
                if strings[member.key] == nil { strings[member.key] = value }
            }
            return strings
        default: throw Invalid()
        }
    }

    func array(_ key: String) throws(Invalid) -> [JSONValue] {
        guard let value = try optionalArray(key) else { throw Invalid() }
        return value
    }

    func optionalArray(_ key: String) throws(Invalid) -> [JSONValue]? {
        switch object[key] {
        case nil, .null?: return nil
        case .array(let elements)?: return elements
        default: throw Invalid()
        }
    }

    func optionalObject(_ key: String) throws(Invalid) -> JSONFields? {
        switch object[key] {
        case nil, .null?: return nil
        case let value?: return try JSONFields(value)
        }
    }
}
