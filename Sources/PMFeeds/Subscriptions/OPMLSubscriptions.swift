import Foundation

/// OPML 1.0 and 2.0: every `outline` in `body` with an `xmlUrl`, at any depth (folders are outlines
/// without one). Read by the same lenient libxml2 reader as feeds, so charsets, entities and
/// sloppy markup from other readers' exports are handled alike.
enum OPMLSubscriptions {
    static func read(_ bytes: [UInt8], fileURL: URL) throws(SubscriptionListError) -> [Subscription] {
        let root: XMLTreeElement
        do {
            root = try XMLTree.parse(bytes, baseURL: fileURL)
        } catch {
            throw SubscriptionListError(.document, "not OPML: " + error.message.replacingOccurrences(of: "feed looks like XML but ", with: ""))
        }
        guard root.name.lowercased() == "opml" else {
            throw SubscriptionListError(.element("/\(root.name)"), "not OPML: the root element is <\(root.name)>, not <opml>")
        }
        guard let body = root.children.first(where: { $0.name.lowercased() == "body" }) else {
            throw SubscriptionListError(.element("/\(root.name)"), "OPML without a <body>")
        }
        var subscriptions: [Subscription] = []
        try collect(body, path: "/\(root.name)/\(body.name)", into: &subscriptions)
        return subscriptions
    }

    /// Depth first, in document order. Paths number outlines among their siblings from 1, as XPath does.
    private static func collect(_ parent: XMLTreeElement, path: String,
                                into subscriptions: inout [Subscription]) throws(SubscriptionListError) {
        var position = 0
        for outline in parent.children where outline.name.lowercased() == "outline" {
            position += 1
            let here = "\(path)/outline[\(position)]"
            // Attribute names are matched without case: some exporters write `xmlurl`.
            if let reference = attribute("xmlUrl", of: outline), !reference.isEmpty {
                let url = outline.resolve(reference)
                guard SubscriptionList.isFeedURL(url) else {
                    throw SubscriptionListError(.element(here), "xmlUrl \"\(reference)\" is not an http, https or file URL")
                }
                let title = [attribute("text", of: outline), attribute("title", of: outline)]
                    .compactMap { $0 }.first { !$0.isEmpty }
                subscriptions.append(Subscription(url: url, title: title))
            }
            try collect(outline, path: here, into: &subscriptions)
        }
    }

    /// The attribute's trimmed value, its name compared without case.
    private static func attribute(_ name: String, of element: XMLTreeElement) -> String? {
        let key = name.lowercased()
        return element.attributes.first { $0.key.lowercased() == key }?.value
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
