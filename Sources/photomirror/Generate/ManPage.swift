import Foundation

/// photomirror(1) in roff, from the same definitions as `--help`.
enum ManPage {
    static func render() -> String {
        var roff = ".TH PHOTOMIRROR 1 \"\" \"photomirror \(Version.string)\" \"User Commands\"\n"
        roff += ".SH NAME\nphotomirror \\- mirror the images of photo feeds into a content\\-addressed thumbnail cache\n"
        roff += ".SH SYNOPSIS\n"
        for command in CommandSpec.all {
            roff += ".B photomirror \(escape(command.name))\n\(escape(command.synopsis))\n.br\n"
        }
        roff += ".SH DESCRIPTION\n"
        roff += "photomirror reads photo feeds, downloads every image they name, keeps a content\\-addressed cache "
            + "of thumbnails with an SQLite index, and publishes a static gallery that any web server can serve.\n"
        roff += ".SH COMMANDS\n"
        for command in CommandSpec.all { roff += section(command) }
        for section in Overview.sections {
            roff += ".SH \"\(escape(section.title))\"\n.nf\n\(escape(section.body))\n.fi\n"
        }
        roff += ManPageSections.examples + ManPageSections.files + ManPageSections.environment + ManPageSections.seeAlso
        return roff
    }

    private static func section(_ command: CommandSpec) -> String {
        var roff = ".SS \"photomirror \(escape(command.name)) \(escape(command.synopsis).replacingOccurrences(of: "\"", with: "\\(dq"))\"\n"
        roff += paragraphs(command.about)
        for flag in command.flags {
            roff += ".TP\n.B \(escape(flag.usage))\n\(escape(flag.help))\n"
        }
        for note in HelpText.sections(of: command.notes) {
            roff += ".PP\n.B \(escape(note.title))\n.nf\n\(escape(note.body))\n.fi\n"
        }
        return roff
    }

    private static func paragraphs(_ text: String) -> String {
        ".PP\n" + text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? ".PP" : escape(String($0)) }.joined(separator: "\n") + "\n"
    }

    /// groff names a character by at least four upper-case hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Backslashes, hyphens and non-ASCII characters escaped; a line that would start with a control character guarded.
    static func escape(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var escaped = ""
            for scalar in line.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\e"
                case "-": escaped += "\\-"
                case _ where scalar.value > 0x7E: escaped += "\\[u" + hex(scalar.value) + "]"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
        }.joined(separator: "\n")
    }
}

