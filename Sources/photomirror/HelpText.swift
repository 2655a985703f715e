/// `--help` texts, made from the command and flag definitions. The README quotes the same facts.
enum HelpText {
    /// Where a flag's help starts in OPTIONS, and the width everything wraps at.
    static let helpColumn = 23
    static var width: Int { TerminalWidth.current }

    static var main: String {
        let title = "photomirror — mirror the images of photo feeds into a content-addressed thumbnail cache"
        var text = wrap(title, width: width).joined(separator: "\n") + "\n\nUSAGE\n"
        // A synopsis is never broken (as man's SYNOPSIS); its tagline goes under it when both don't fit.
        for command in CommandSpec.all {
            let usage = "  photomirror \(command.name) \(command.synopsis)"
            if usage.count + 3 + command.tagline.count <= width {
                text += usage + "   " + command.tagline + "\n"
            } else {
                text += usage + "\n" + wrap(command.tagline, width: width - 6).map { "      " + $0 + "\n" }.joined()
            }
        }
        text += "  photomirror help [command]   show help\n"
        for section in Overview.sections {
            text += "\n\(section.title)\n" + indented(reflow(section.body, width: width - 2), by: 2) + "\n"
        }
        return text.trimmingTrailingNewlines()
    }

    static func command(_ spec: CommandSpec) -> String {
        var text = "photomirror \(spec.name) \(spec.synopsis)\n\n\(reflow(spec.about, width: width))\n"
        if !spec.flags.isEmpty {
            text += "\nOPTIONS\n"
            for flag in spec.flags { text += option(flag) }
        }
        for section in sections(of: spec.notes) {
            text += "\n\(section.title)\n" + indented(reflow(section.body, width: width - 2), by: 2) + "\n"
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

    /// Prose rewrapped to `width`: runs of plain lines are joined and wrapped again, a blank line
    /// ends a paragraph, and a table row (`2  usage error`: a label, two spaces or more, its
    /// text, continued on lines indented to that text) is rewrapped under its own column.
    /// Anything else indented is kept as written.
    static func reflow(_ text: String, width: Int) -> String {
        var output: [String] = []
        var paragraph: [Substring] = []
        var row: (label: String, text: [Substring])?
        func flush() {
            if !paragraph.isEmpty { output += wrap(paragraph.joined(separator: " "), width: width) }
            paragraph = []
            if let (label, text) = row {
                let pad = String(repeating: " ", count: label.count)
                let lines = wrap(text.joined(separator: " "), width: max(width - label.count, 20))
                output += lines.enumerated().map { ($0.offset == 0 ? label : pad) + $0.element }
            }
            row = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let current = row, line.hasPrefix(String(repeating: " ", count: current.label.count)), line.first == " ",
               line.dropFirst(current.label.count).first != " " {
                row?.text.append(line.drop { $0 == " " })
            } else if line.first != " ", let gap = line.range(of: "  ") {
                flush()
                let textStart = line[gap.lowerBound...].firstIndex { $0 != " " } ?? line.endIndex
                row = (String(line[..<textStart]), [line[textStart...]])
            } else if line.isEmpty || line.first == " " {
                flush()
                output.append(String(line))
            } else {
                if row != nil { flush() }
                paragraph.append(line)
            }
        }
        flush()
        return output.joined(separator: "\n")
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
