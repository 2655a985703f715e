import Foundation
import XCTest

/// Power-loss durability, from a syscall trace of a real sync: every original and thumbnail that
/// an index commit names is put into place (linked or renamed) and flushed (syncfs) before that
/// commit syncs its WAL, so after a power cut no row can name a file whose blocks never reached
/// the disk (issue 15). Which commit names which file is read from the WAL's own pages: a content
/// file is named by the SHA-256 its rows hold, and the trace carries every page written.
final class DurabilityOrderTests: XCTestCase {
    struct Trace {
        /// Content files put into place, flushes of the file system, the hashes written into the
        /// WAL and its syncs, in order.
        enum Event: Equatable {
            case contentPut(String)
            case flushStarted(Substring)
            case flushed(Substring)
            case walWrite(Set<String>)
            case walSync
        }

        var events: [Event] = []

        /// strace -f -y -s (page size) output: a call split by another thread's is "<unfinished ...>"
        /// then "<... NAME resumed>". A link or rename counts when it returns, a syncfs (for what was
        /// put before it started) when it returns, a WAL sync when it starts, a WAL write by the
        /// data its first line carries. The target is the second
        /// quoted path of both `rename` and `linkat` (an unnamed file's is `""` or its
        /// /proc/self/fd link).
        init(_ text: String) {
            // A link's or rename's target as its first line names it, by thread, until it returns.
            var putting: [Substring: String] = [:]
            for line in text.split(separator: "\n").map(String.init) {
                let thread = line.prefix { $0 != " " }
                let finished = line.hasSuffix("= 0")
                if line.contains("-wal>"), line.contains("fdatasync(") || line.contains("fsync(") {
                    events.append(.walSync)
                } else if line.contains("-wal>"), line.contains("pwrite64(") {
                    let hashes = Self.hashes(in: line)
                    if !hashes.isEmpty { events.append(.walWrite(hashes)) }
                } else if line.contains("syncfs") {
                    if !line.contains("resumed") { events.append(.flushStarted(thread)) }
                    if finished { events.append(.flushed(thread)) }
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

        /// Every run of 64 lowercase hex digits: the SHA-256s a page's rows hold, as text.
        static func hashes(in line: String) -> Set<String> {
            var found: Set<String> = []
            var run: [UInt8] = []
            for byte in line.utf8 + [0] {
                if (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) {
                    run.append(byte)
                    continue
                }
                if run.count == 64 { found.insert(String(decoding: run, as: UTF8.self)) }
                run = []
            }
            return found
        }

        /// The hash a content file is named by: an original's own, a thumbnail's original's.
        static func hash(ofContentFile path: String) -> String {
            String(path.split(separator: "/").last!.prefix { $0 != "." })
        }

        /// The content files that a WAL sync made rows durable for before they were put and
        /// flushed: each is named by a hash written into the WAL before that sync.
        var unflushedAtCommit: [String] {
            var filesByHash: [String: [String]] = [:]
            for case .contentPut(let path) in events { filesByHash[Self.hash(ofContentFile: path), default: []].append(path) }
            var named: Set<String> = []
            var put: Set<String> = []
            // A flush covers the files put before it started, and counts once it has returned.
            var covering: [Substring: Set<String>] = [:]
            var flushed: Set<String> = []
            var violations: [String] = []
            for event in events {
                switch event {
                case .contentPut(let path): put.insert(path)
                case .flushStarted(let thread): covering[thread] = put
                case .flushed(let thread): flushed.formUnion(covering.removeValue(forKey: thread) ?? [])
                case .walWrite(let hashes): named.formUnion(hashes.filter { filesByHash[$0] != nil })
                case .walSync:
                    for hash in named.sorted() {
                        for path in filesByHash[hash]! where !flushed.contains(path) && !violations.contains(path) {
                            violations.append(path)
                        }
                    }
                }
            }
            return violations
        }

        /// The content files whose hash some WAL write holds: all of them, or the trace missed
        /// the rows and the check above would pass for nothing.
        var namedContentFiles: [String] {
            var named: Set<String> = []
            for case .walWrite(let hashes) in events { named.formUnion(hashes) }
            return events.compactMap { if case .contentPut(let path) = $0, named.contains(Self.hash(ofContentFile: path)) { path } else { nil } }
        }

        var flushCount: Int { events.filter { if case .flushed = $0 { true } else { false } }.count }
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
        let result = try Command.run(strace, ["-f", "-qq", "-y", "-e", "trace=rename,renameat,renameat2,linkat,syncfs,fsync,fdatasync,pwrite64",
                                              "-s", "65600",
                                              "-o", output.path, Paths.binary.path, "sync", "--quiet", "--cache",
                                              folder.appendingPathComponent("cache").path, server.url("feed.js")],
                                     environment: environment.merging(["NO_COLOR": "1"]) { $1 })
        XCTAssertEqual(result.status, 0, result.stderr)
        return Trace(try String(contentsOf: output, encoding: .utf8))
    }

    func testEveryContentFileIsFlushedBeforeTheCommitThatNamesIt() throws {
        let trace = try tracedSync()
        let put = trace.events.filter { if case .contentPut = $0 { true } else { false } }
        XCTAssertEqual(put.count, 12, "6 originals and 6 thumbnails: \(trace.events)")
        XCTAssertEqual(trace.namedContentFiles.count, 12, "every file's hash is seen in the WAL")
        XCTAssertGreaterThan(trace.flushCount, 0)
        XCTAssertEqual(trace.unflushedAtCommit, [], "committed before flushed")
    }

    /// The check itself: with the bench's switch that turns durability off, it finds the files.
    func testTheCheckFindsFilesCommittedUnflushed() throws {
        let trace = try tracedSync(environment: ["PHOTOMIRROR_BENCH_NO_DURABILITY": "1"])
        XCTAssertEqual(trace.flushCount, 0)
        // Without synchronous commits the WAL is synced less often, so not all 12 need precede one.
        XCTAssertGreaterThan(trace.unflushedAtCommit.count, 0, "\(trace.events)")
    }
}
