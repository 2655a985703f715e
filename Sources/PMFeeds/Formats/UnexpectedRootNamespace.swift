/// An RSS or Atom root in a namespace its format does not define: `<rss>` in the address of the
/// RSS 2.0 spec (`xmlns="https://cyber.harvard.edu/rss/rss.html"`, or Harvard's older
/// `http://blogs.law.harvard.edu/tech/rss`), an Atom `<feed>` in none or in a pre-1.0 draft's
/// (`http://purl.org/echo/`). feedparser reads them by their element names, and so do we, with a
/// warning: the root's namespace, which its children inherit, is moved to the one the format's
/// reader looks in.
enum UnexpectedRootNamespace {
    static func adopted(_ root: XMLTreeElement) -> (FeedDetector.Detected, warning: String)? {
        let found = root.namespace.isEmpty ? "in no namespace" : "in namespace \(root.namespace)"
        switch root.name {
        case "rss":
            let moved = root.movingNamespace(root.namespace, to: XMLNamespace.none)
            return (.rss(moved), "the <rss> root is \(found), which is no RSS namespace: read as RSS")
        case "feed":
            // Atom 0.3's own marker; its dates are read from other elements than 1.0's.
            let atom = root.attributes["version"] == "0.3" ? XMLNamespace.atom03 : XMLNamespace.atom
            let moved = root.movingNamespace(root.namespace, to: atom)
            return (.atom(moved), "the <feed> root is \(found), not Atom's (\(atom)): read as Atom")
        default:
            return nil
        }
    }
}
