/// `--help` texts, made from the command and flag definitions. The README quotes the same facts.
enum HelpText {
    /// Where a flag's help starts in OPTIONS, and the width it wraps at.
    static let helpColumn = 23
    static let width = 92

    static var main: String {
        var text = "photomirror — mirror the images of photo feeds into a content-addressed thumbnail cache\n\nUSAGE\n"
        for command in CommandSpec.all {
            text += "  photomirror \(command.name) \(command.synopsis)   \(command.tagline)\n"
        }
        text += "  photomirror help [command]   show help\n"
        for section in Overview.sections {
            text += "\n\(section.title)\n" + indented(section.body, by: 2) + "\n"
        }
        return text.trimmingTrailingNewlines()
    }

    static func command(_ spec: CommandSpec) -> String {
        var text = "photomirror \(spec.name) \(spec.synopsis)\n\n\(spec.about)\n"
        if !spec.flags.isEmpty {
            text += "\nOPTIONS\n"
            for flag in spec.flags { text += option(flag) }
        }
        for section in sections(of: spec.notes) {
            text += "\n\(section.title)\n" + indented(section.body, by: 2) + "\n"
        }
        return text.trimmingTrailingNewlines()
    }

    /// `  --jobs N             downloads in flight…`, the help wrapped under its column.
    static func option(_ flag: Flag) -> String {
        let usage = "  " + flag.usage
        let lines = wrap(flag.help, width: width - helpColumn)
        let pad = String(repeating: " ", count: helpColumn)
        var text: String
        var rest = lines[...]
        if usage.count < helpColumn - 1 {
            text = usage + String(repeating: " ", count: helpColumn - usage.count) + (rest.popFirst() ?? "") + "\n"
        } else {
            text = usage + "\n"
        }
        for line in rest { text += pad + line + "\n" }
        return text
    }

    /// A notes text split at its lines in capitals.
    static func sections(of notes: String) -> [(title: String, body: String)] {
        var result: [(title: String, body: [String])] = []
        for line in notes.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = String(line)
            if !text.isEmpty, text == text.uppercased(), text.first?.isLetter == true, !text.contains(" ") {
                result.append((text, []))
            } else if !result.isEmpty {
                result[result.count - 1].body.append(text)
            }
        }
        return result.map { ($0.title, $0.body.joined(separator: "\n").trimmingTrailingNewlines()) }
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    private static func indented(_ text: String, by spaces: Int) -> String {
        let pad = String(repeating: " ", count: spaces)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : pad + $0 }.joined(separator: "\n")
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

/// The sections of `photomirror help` after the command list; the man page has them too.
enum Overview {
    static let sections: [(title: String, body: String)] = [
        ("FEEDS", """
        Flickr public feed (JSON or JSONP), Flickr REST photos.search/getRecent, Marvel API
        (paged; signed when MARVEL_PUBLIC_KEY and MARVEL_PRIVATE_KEY are set), RSS 0.90, 0.91–0.94,
        1.0 (RDF) and 2.0, Atom 0.3 and 1.0, JSON Feed 1.0/1.1. The kind is detected from the
        content; sloppy XML (a bare &, HTML entities, mismatched tags) is recovered with a
        warning, and the charset comes from the byte-order mark, the HTTP charset, the XML
        declaration, else UTF-8 or windows-1252. An item's images are its media:content,
        image enclosures, itunes:image / googleplay:image and the <img>s of its HTML, in that
        order (media:thumbnail when nothing larger is given); the first is the gallery's.
        """),
        ("CACHE", """
        --cache DIR, else $PHOTOMIRROR_CACHE, else $XDG_CACHE_HOME/photomirror, else
        ~/.cache/photomirror. The layout is described in cache-layout.md.
        """),
        ("EXIT CODES", """
        0  everything succeeded
        1  some items failed (sync, thumb), the cache is damaged (verify), or prune could
           not get under the limit
        2  usage error
        3  a feed could not be fetched or parsed (watch: every feed is gone)
        4  the cache could not be opened, locked or written (e.g. disk full, a damaged or
           missing index: run `photomirror verify --repair`), or another writer (sync,
           prune, verify --repair) held its lock for longer than --wait
        130, 143  interrupted by SIGINT or SIGTERM (the cache stays consistent)
        """),
    ]
}
