import Foundation
import PMCache
import Synchronization
import Testing
@testable import PhotoMirror

/// The batching of served files into index writes, with a fake clock and a fake index.
@Suite struct AccessRecorderTests {
    /// Records every batch and answers with the scripted outcomes, then `.written`.
    final class FakeSink: AccessSink {
        let batches = Mutex<[[AccessedFile: Double]]>([])
        let script: Mutex<[AccessWriteOutcome]>
        init(_ script: [AccessWriteOutcome] = []) { self.script = Mutex(script) }

        func write(_ accesses: [AccessedFile: Double]) -> AccessWriteOutcome {
            batches.withLock { $0.append(accesses) }
            return script.withLock { $0.isEmpty ? .written : $0.removeFirst() }
        }

        var written: [[AccessedFile: Double]] { batches.withLock { $0 } }
    }

    final class FakeClock: Sendable {
        let now = Mutex(0.0)
        func set(_ time: Double) { now.withLock { $0 = time } }
    }

    final class Notes: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    static let a = AccessedFile.original(ImageHash(String(repeating: "ab", count: 32)))
    static let b = AccessedFile.thumbnail(ImageHash(String(repeating: "cd", count: 32)), size: "40x40")

    func make(_ sink: FakeSink) -> (AccessRecorder, FakeClock, Notes) {
        let clock = FakeClock(), notes = Notes()
        let recorder = AccessRecorder(sink: sink, interval: 5, clock: { clock.now.withLock { $0 } },
                                      note: { line in notes.lines.withLock { $0.append(line) } })
        return (recorder, clock, notes)
    }

    @Test func aFileAskedForOftenIsOneEntryWithItsLatestTime() {
        let sink = FakeSink()
        let (recorder, clock, _) = make(sink)
        for time in [1.0, 3, 2] {
            clock.set(time)
            recorder.record(Self.a)
        }
        recorder.record(Self.b)
        #expect(recorder.pendingCount == 2)
        recorder.flush()
        #expect(sink.written == [[Self.a: 3, Self.b: 2]])
        #expect(recorder.pendingCount == 0)
    }

    @Test func aBatchIsWrittenOnlyOnceTheIntervalHasPassed() {
        let sink = FakeSink()
        let (recorder, clock, _) = make(sink)
        clock.set(1)
        recorder.record(Self.a)
        clock.set(4.9)
        #expect(recorder.flushIfDue() == nil)
        #expect(sink.written.isEmpty)
        clock.set(5)
        #expect(recorder.flushIfDue() == .written)
        #expect(sink.written == [[Self.a: 1]])
        clock.set(7)
        recorder.record(Self.b)
        clock.set(9)
        #expect(recorder.flushIfDue() == nil, "5 s after the last write, not after the record")
        clock.set(10)
        #expect(recorder.flushIfDue() == .written)
        #expect(sink.written == [[Self.a: 1], [Self.b: 7]])
        clock.set(20)
        #expect(recorder.flushIfDue() == nil, "nothing pending: the sink is not called")
        #expect(sink.written.count == 2)
    }

    @Test func aBusyIndexKeepsTheBatchForTheNextTry() {
        let sink = FakeSink([.busy])
        let (recorder, clock, notes) = make(sink)
        clock.set(1)
        recorder.record(Self.a)
        clock.set(5)
        #expect(recorder.flushIfDue() == .busy)
        #expect(recorder.pendingCount == 1)
        clock.set(6)
        recorder.record(Self.b)
        recorder.record(Self.a)
        clock.set(10)
        #expect(recorder.flushIfDue() == .written)
        #expect(sink.written == [[Self.a: 1], [Self.a: 6, Self.b: 6]])
        #expect(notes.all.isEmpty)
    }

    @Test func stoppingWritesWhatIsPendingWithoutWaitingForTheInterval() {
        let sink = FakeSink([.busy, .busy])
        let (recorder, clock, notes) = make(sink)
        clock.set(1)
        recorder.record(Self.a)
        recorder.finish()
        #expect(sink.written == [[Self.a: 1], [Self.a: 1], [Self.a: 1]], "retried while busy")
        #expect(recorder.pendingCount == 0)
        #expect(notes.all.isEmpty)
    }

    @Test func anIndexBusyThroughTheLastTriesIsReported() {
        let sink = FakeSink(Array(repeating: .busy, count: 10))
        let (recorder, _, notes) = make(sink)
        recorder.record(Self.a)
        recorder.finish(attempts: 3)
        #expect(sink.written.count == 3)
        #expect(notes.all == ["1 served files not counted as used for prune: the index stayed busy"])
    }

    @Test func anUnusableIndexStopsCountingAndSaysSoOnce() {
        let sink = FakeSink([.unavailable("index.sqlite is read-only")])
        let (recorder, clock, notes) = make(sink)
        recorder.record(Self.a)
        clock.set(5)
        #expect(recorder.flushIfDue() == .unavailable("index.sqlite is read-only"))
        #expect(!recorder.isCounting)
        recorder.record(Self.b)
        #expect(recorder.pendingCount == 0)
        clock.set(10)
        #expect(recorder.flushIfDue() == nil)
        recorder.finish()
        #expect(sink.written.count == 1)
        #expect(notes.all == ["not counting served images as used for prune: index.sqlite is read-only"])
    }

    @Test func theFlusherWritesTheLastBatchWhenStopped() async {
        let sink = FakeSink()
        let (recorder, _, _) = make(sink)
        // A tick far longer than the test: only the stop can write.
        let flusher = AccessFlusher(recorder: recorder, tick: 3600)
        recorder.record(Self.a)
        await flusher.stop()
        #expect(sink.written == [[Self.a: 0]])
        await flusher.stop()
        #expect(sink.written.count == 1, "a second stop returns at once")
    }

    @Test func theFlusherWritesOnItsOwnOnceDue() async throws {
        let sink = FakeSink()
        let (recorder, clock, _) = make(sink)
        let flusher = AccessFlusher(recorder: recorder, tick: 0.01)
        recorder.record(Self.a)
        clock.set(5)
        // Readiness, not timing: wait for the write (the bound only keeps a broken flusher
        // from hanging the run).
        for _ in 0..<6000 where sink.written.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(sink.written == [[Self.a: 0]])
        await flusher.stop()
        #expect(sink.written.count == 1, "nothing was left for the stop")
    }
}
