import Foundation
import PhotoMirror

/// `photomirror feed`: what photomirror reads in a feed, without syncing it.
struct FeedCommand {
    let arguments: Arguments
    let options: LoadingOptions
    let target: String

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, flags: CommandSpec.feed.flags)
        guard arguments.operands.count == 1 else { throw UsageError("feed needs exactly one feed URL or file") }
        options = LoadingOptions(arguments)
        target = try FeedOperand.url(arguments.operands[0])
    }

    func run() async throws(UsageError) -> ExitCode {
        let started = Date()
        let report: FeedInspection.Report
        do {
            report = try await FeedInspection(options: options).run(url: target)
        } catch {
            Output.err("photomirror: \(error)\n")
            return .feedFailed
        }
        if arguments.has(.feedJSON) {
            var fields = JSONDocument.object(report, nulls: ["link", "image"])
            fields["items"] = report.items.map { JSONDocument.object($0, nulls: ["link", "no_image_reason"]) }
            fields["totals"] = ["items": report.items.count, "images": report.items.reduce(0) { $0 + $1.media.count },
                                "invalid": report.invalid.count]
            Output.out(JSONDocument.encode(JSONEnvelope(command: "feed", started: started), fields))
        } else {
            Output.out(Self.text(report))
        }
        return .ok
    }

    static func text(_ report: FeedInspection.Report) -> String {
        let images = report.items.reduce(0) { $0 + $1.media.count }
        var text = "\(report.kind) \"\(report.title)\": \(counted(report.items.count, "item")), \(counted(images, "image"))"
        text += report.invalid.isEmpty ? "\n" : ", \(report.invalid.count) unreadable\n"
        if let image = report.image { text += "feed image: \(image)\n" }
        for warning in report.warnings { text += "warning: \(warning)\n" }
        for item in report.items {
            text += "item \(item.id): \(item.title.isEmpty ? "(untitled)" : item.title)\n"
            for media in item.media { text += "  \(media.source.rawValue): \(media.url)\n" }
            if item.media.isEmpty { text += "  no image: \(item.noImageReason ?? "none given")\n" }
        }
        for reason in report.invalid { text += "unreadable: \(reason)\n" }
        return text
    }
}
