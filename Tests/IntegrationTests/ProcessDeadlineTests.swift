import Foundation
import XCTest

/// A program that outlives its deadline fails its test at once, named and with its stacks,
/// rather than stalling the suite.
final class ProcessDeadlineTests: XCTestCase {
    func testAProgramPastItsDeadlineIsKilledAndNamed() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["120"]
        let started = Date()
        XCTAssertThrowsError(try process.runToEnd(deadline: 1)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.hasPrefix("/bin/sleep 120 was still running after 1 s and was killed"), text)
            if Command.find("gdb") != nil {
                XCTAssertTrue(text.contains("nanosleep"), "its stack shows where it waited: \(text)")
            }
        }
        XCTAssertFalse(process.isRunning)
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertLessThan(Date().timeIntervalSince(started), 100, "killed, not waited for")
    }

    func testAProgramThatEndsInTimeGivesItsStatus() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 7"]
        try process.runToEnd(deadline: 60)
        XCTAssertEqual(process.terminationStatus, 7)
    }
}
