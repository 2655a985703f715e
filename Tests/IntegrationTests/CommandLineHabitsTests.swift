import Foundation
import Testing

/// The habits users bring from other tools (issue 25, item 5): short flags, -V, a suggestion for a
/// mistyped option, help that fits the terminal, local paths as feeds, and counts that read right.
@Suite struct CommandLineHabitsTests {
    @Test func aMistypedOptionSuggestsTheNearestOneAndTheCommandsHelp() throws {
        let result = try Photomirror().run(["sync", "--job", "4", "https://example.org/feed"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown option --job; did you mean --jobs?"), "\(result.stderr)")
        #expect(result.stderr.contains("photomirror help sync"), "\(result.stderr)")
        let far = try Photomirror().run(["prune", "--zzzzzzzz"])
        #expect(far.status == 2)
        #expect(!far.stderr.contains("did you mean"), "\(far.stderr)")
        #expect(far.stderr.contains("photomirror help prune"), "\(far.stderr)")
    }

    @Test func shortFlagsAndVersion() throws {
        let pm = Photomirror()
        let short = try pm.run(["-V"])
        #expect(short.status == 0)
        #expect(short.stdout.hasPrefix("photomirror "))
        #expect(try pm.run(["--version"]).stdout == short.stdout)
        #expect(try pm.run(["sync", "-h"]).stdout == (try pm.run(["sync", "--help"]).stdout))
        let sync = try pm.run(["sync", "--help"]).stdout
        for usage in ["-q, --quiet", "-v, --verbose", "-n, --dry-run", "-j, --jobs N"] {
            #expect(sync.contains(usage), "sync --help lacks \(usage)")
        }
        #expect(try pm.run(["thumb", "--help"]).stdout.contains("-o, --output DIR"))
        #expect(try pm.run(["prune", "--help"]).stdout.contains("-n, --dry-run"))
    }

    @Test func helpOfAnUnknownTopicIsAUsageError() throws {
        let result = try Photomirror().run(["help", "bogus"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bogus"), "\(result.stderr)")
        #expect(try Photomirror().run(["help", "sync"]).status == 0)
        #expect(try Photomirror().run(["help", "help"]).status == 0)
    }

    /// Prose wraps at COLUMNS; a synopsis (as man's SYNOPSIS) and a single long word are not broken.
    @Test func helpWrapsAtColumns() throws {
        for command in ["sync", "prune", "verify"] {
            let help = try Photomirror(environment: ["COLUMNS": "60"]).run([command, "--help"]).stdout
            let lines = help.split(separator: "\n").map(String.init)
            let prose = lines.filter { !$0.hasPrefix("photomirror ") && $0.trimmingCharacters(in: .whitespaces).contains(" ") }
            for line in prose { #expect(line.count <= 60, "\(command): \(line.count) columns: \(line)") }
            #expect(prose.contains { $0.count > 50 }, "\(command) --help does not use the width")
            let wide = try Photomirror(environment: ["COLUMNS": "120"]).run([command, "--help"]).stdout
            #expect(wide.split(separator: "\n").contains { $0.count > 100 }, "\(command) --help ignores COLUMNS=120")
        }
        let main = try Photomirror(environment: ["COLUMNS": "60"]).run(["help"]).stdout
        let overview = main.split(separator: "\n").filter { !$0.hasPrefix("  photomirror ") }
        for line in overview { #expect(line.count <= 60, "help: \(line)") }
    }

    @Test func aLocalPathSyncsAsAFileFeedAbsoluteAndRelative() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 1))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let feed = site.root.appendingPathComponent("feed.js")

        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let absolute = try Photomirror().run(["sync", "--cache", cache.path, feed.path])
        #expect(absolute.status == 0, "\(absolute.stderr)")
        #expect(absolute.stderr.contains("1 item, 1 ok"), "\(absolute.stderr)")
        #expect(absolute.stderr.contains("synced 1 of 1 feed: 1 image ok"), "\(absolute.stderr)")

        let relativeCache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let relative = try Photomirror(currentDirectory: site.root).run(["sync", "--cache", relativeCache.path, "feed.js"])
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(relative.stderr.contains("1 image ok"), "\(relative.stderr)")
        let shown = try Photomirror(currentDirectory: site.root.deletingLastPathComponent()).run(["feed", "site/feed.js"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("1 item, 1 image"), "\(shown.stdout)")
    }

    @Test func aURLWithoutSchemeIsAUsageErrorBeforeAnyCache() throws {
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        for command in ["sync", "watch"] {
            let result = try Photomirror().run([command, "--cache", cache.path, "example.org/feed"])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("https://example.org/feed"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cache.path), "\(command) created the cache")
        }
        let missing = try Photomirror().run(["sync", "--cache", cache.path, "./no-such-feed.xml"])
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(missing.stderr.contains("no such feed file"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cache.path))
        #expect(try Photomirror().run(["feed", "example.org/feed"]).status == 2)
    }

    /// `a/x.jpg`, `b/x.jpg` and `a/x.png` would all make `x.png`: refused, named, nothing written.
    @Test func thumbRefusesInputsWhoseThumbnailsWouldCollide() throws {
        let photos = try Paths.photos(count: 2)
        let folder = try Paths.temporaryFolder()
        for sub in ["a", "b"] { try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true) }
        let inputs = ["a/x.jpg", "b/x.jpg", "a/x.png", "a/y.jpg"].map { folder.appendingPathComponent($0) }
        for (index, input) in inputs.enumerated() { try FileManager.default.copyItem(at: photos[index % 2], to: input) }
        let output = folder.appendingPathComponent("out")
        let result = try Photomirror().run(["thumb", "-o", output.path] + inputs.map(\.path))
        #expect(result.status == 2, "\(result.stderr)")
        for input in inputs.prefix(3) { #expect(result.stderr.contains(input.path), "\(result.stderr)") }
        #expect(!result.stderr.contains(inputs[3].path), "y.jpg collides with nothing: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "thumb wrote before refusing")
        let apart = try Photomirror().run(["thumb", "-j", "2", "-o", output.path, inputs[0].path, inputs[3].path])
        #expect(apart.status == 0, "\(apart.stderr)")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("x.png").path))
    }
}
