import Foundation
import XCTest

/// Power-loss durability, from a syscall trace of a real sync: every original and thumbnail put
/// into place (linked or renamed) is flushed (syncfs) before the index commit that follows it
/// syncs its WAL, so after a power cut no row can name a file whose blocks never reached the disk (issue 15).
final class DurabilityOrderTests: XCTestCase {
    struct Trace {
        /// Content files put into place, flushes of the file system and WAL syncs, in order.
        enum Event: Equatable {
            case contentPut(String)
            case flushed
            case walSync
        }

        var events: [Event] = []

        /// strace -f -y output: a call split by another thread's is "<unfinished ...>" then
        /// "<... NAME resumed>". A link, rename or syncfs counts when it returns, a WAL sync when it
        /// starts. The target is the second quoted path of both `rename` and `linkat` (an unnamed
        /// file's is `""` or its /proc/self/fd link).
        init(_ text: String) {
            // A link's or rename's target as its first line names it, by thread, until it returns.
            var putting: [Substring: String] = [:]
            for line in text.split(separator: "\n").map(String.init) {
                let thread = line.prefix { $0 != " " }
                let finished = line.hasSuffix("= 0")
                if line.contains("-wal>"), line.contains("fdatasync(") || line.contains("fsync(") {
                    events.append(.walSync)
                } else if line.contains("syncfs"), finished {
                    events.append(.flushed)
                } else if line.contains("rename") || line.contains("linkat") {
                    let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
                    if !line.contains("resumed"), let target = quoted.dropFirst(3).first {
                        putting[thread] = String(target)
                    }
                    guard finished, let target = putting.removeValue(forKey: thread) else { continue }
                    if target.contains("/originals/") || target.contains("/thumbs/") { events.append(.contentPut(target)) }
                }
            }
        }

        /// Content files put into place before a WAL sync with no flush in between. Exact for a sync of one
        /// index batch (a few images in under 2 s), whose files all precede its commit; with several, a
        /// later batch's files may be put while an earlier one commits, without its rows.
        var unflushedAtCommit: [String] {
            var pending: [String] = []
            var violations: [String] = []
            for event in events {
                switch event {
                case .contentPut(let path): pending.append(path)
                case .flushed: pending = []
                case .walSync: violations += pending; pending = []
                }
            }
            return violations
        }
    }

    private func tracedSync(environment: [String: String] = [:]) throws -> Trace {
        guard let strace = Command.find("strace") else { throw XCTSkip("strace is not installed (Scripts/setup --for-tests installs it)") }
        let site = try FeedSite(photos: try Paths.photos(count: 6))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let folder = try Paths.temporaryFolder()
        let output = folder.appendingPathComponent("trace.txt")
        // Links and renames are traced without the path of every folder (-y only annotates descriptors).
        let result = try Command.run(strace, ["-f", "-qq", "-y", "-e", "trace=rename,renameat,renameat2,linkat,syncfs,fsync,fdatasync",
                                              "-o", output.path, Paths.binary.path, "sync", "--quiet", "--cache",
                                              folder.appendingPathComponent("cache").path, server.url("feed.js")],
                                     environment: environment.merging(["NO_COLOR": "1"]) { $1 })
        XCTAssertEqual(result.status, 0, result.stderr)
        return Trace(try String(contentsOf: output, encoding: .utf8))
    }

    func testEveryContentFileIsFlushedBeforeTheCommitThatFollowsIt() throws {
        let trace = try tracedSync()
        let put = trace.events.filter { if case .contentPut = $0 { true } else { false } }
        XCTAssertEqual(put.count, 12, "6 originals and 6 thumbnails: \(trace.events)")
        XCTAssertTrue(trace.events.contains(.flushed))
        XCTAssertEqual(trace.unflushedAtCommit, [], "committed before flushed")
    }

    /// The check itself: with the bench's switch that turns durability off, it finds the files.
    func testTheCheckFindsFilesCommittedUnflushed() throws {
        let trace = try tracedSync(environment: ["PHOTOMIRROR_BENCH_NO_DURABILITY": "1"])
        XCTAssertFalse(trace.events.contains(.flushed))
        // Without synchronous commits the WAL is synced less often, so not all 12 need precede one.
        XCTAssertGreaterThan(trace.unflushedAtCommit.count, 0, "\(trace.events)")
    }
}
