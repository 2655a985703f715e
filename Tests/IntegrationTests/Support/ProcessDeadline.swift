import Foundation

/// A program the tests ran that was still running at its deadline: it was stuck, and it was
/// killed. The description names the command and holds its threads' stacks, so the test that
/// ran it fails saying where, instead of stalling the whole suite.
struct StuckProcess: Error, CustomStringConvertible {
    let description: String
}

extension Process {
    /// Far beyond any run of the suite, even on a loaded machine (the slowest takes ~20 s).
    static let testDeadline: TimeInterval = 300

    /// Starts the process and waits for it to end; throws `StuckProcess` once it has run for
    /// `deadline` seconds, after taking its stacks and killing it.
    func runToEnd(deadline: TimeInterval = Process.testDeadline) throws {
        let ended = DispatchSemaphore(value: 0)
        terminationHandler = { _ in ended.signal() }
        try run()
        guard ended.wait(timeout: .now() + deadline) == .timedOut else {
            waitUntilExit()
            return
        }
        let command = ([executableURL?.path ?? "?"] + (arguments ?? [])).joined(separator: " ")
        let stacks = Self.threadStacks(of: processIdentifier)
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
        throw StuckProcess(description: "\(command) was still running after \(Int(deadline)) s and was killed; its threads:\n\(stacks)")
    }

    /// Every thread's stack of a running process, from gdb where it is installed.
    static func threadStacks(of pid: Int32) -> String {
        guard let gdb = Command.find("gdb") else { return "(gdb is not installed: no stacks)" }
        let result = try? Command.run(gdb, ["-p", String(pid), "-batch", "-nx", "-ex", "thread apply all bt"])
        return result.map { $0.stdout + $0.stderr } ?? "(gdb did not run)"
    }
}
