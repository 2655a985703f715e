import Foundation
import XCTest

/// The tests' own runs of programs: one past its deadline fails at once, named and with its
/// stacks, and each run's end is seen however many programs start beside it.
final class ProcessDeadlineTests: XCTestCase {
    func testAProgramPastItsDeadlineIsKilledAndNamed() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["120"]
        XCTAssertThrowsError(try process.runToEnd(deadline: 1) as Int32) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.hasPrefix("/bin/sleep 120 was still running after 1 s and was killed"), text)
            if Command.find("gdb") != nil {
                XCTAssertTrue(text.contains("nanosleep"), "its stack shows where it waited: \(text)")
            }
        }
        // Killed, not waited for: a sleep that ran out would have exited normally.
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGKILL)
    }

    func testAProgramThatEndsInTimeGivesItsStatusOrSignal() throws {
        for (script, expected) in [("exit 7", Int32(7)), ("kill -TERM $$", SIGTERM)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            XCTAssertEqual(try process.runToEnd(deadline: 60), expected, script)
        }
    }

    /// Programs started on many threads at once inherit each other's descriptors, among them
    /// the socket through which Foundation learns that a program ended. Long-lived ones beside
    /// short runs (servers are killed and not waited for): waiting through Foundation took up to
    /// the servers' lifetimes, and hung where the waits held every thread the servers' owners
    /// needed; each short run's end is seen as it comes.
    func testRunsEndWhileProgramsStartedBesideThemLive() async throws {
        let statuses = try await withThrowingTaskGroup(of: Int32?.self) { group in
            for index in 0..<120 {
                group.addTask {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/bin/sh")
                    process.standardInput = Pipe()
                    process.standardOutput = FileHandle.nullDevice
                    guard index.isMultiple(of: 2) else {
                        process.arguments = ["-c", "exit 3"]
                        return try process.runToEnd(deadline: 60)
                    }
                    process.arguments = ["-c", "cat > /dev/null"]
                    try process.run()
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0..<50)))
                    kill(process.processIdentifier, SIGKILL)
                    return nil
                }
            }
            return try await group.reduce(into: [Int32]()) { if let status = $1 { $0.append(status) } }
        }
        XCTAssertEqual(statuses, Array(repeating: 3, count: 60))
    }
}
