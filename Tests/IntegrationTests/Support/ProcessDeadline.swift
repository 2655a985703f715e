import Foundation
import Synchronization

/// A program the tests ran that was still running at its deadline: it was stuck, and it was
/// killed. The description names the command and holds its threads' stacks, so the test that
/// ran it fails saying where, instead of stalling the whole suite.
struct StuckProcess: Error, CustomStringConvertible {
    let description: String
}

extension Process {
    /// Far beyond any run of the suite, even on a loaded machine (the slowest takes ~20 s).
    static let testDeadline: TimeInterval = 300

    /// Starts the process and waits for it to end; returns its exit status, or the number of
    /// the signal that ended it (as `terminationStatus` does). Throws `StuckProcess` once it has
    /// run for `deadline` seconds, after taking its stacks and killing it.
    ///
    /// The end is seen by `ChildEnd`, not by Foundation, which learns of it only when a socket
    /// the child holds is closed: a program that another thread started at the same instant
    /// inherits that socket (Foundation closes the other descriptors in a child only up to the
    /// highest it saw open), and then the wait lasts as long as that program runs. With tests
    /// run in parallel, that program can be another test's server, stopped only once that test
    /// gets a thread that such waits hold.
    func runToEnd(deadline: TimeInterval = Process.testDeadline) throws -> Int32 {
        try run()
        let pid = processIdentifier
        let ended = DispatchSemaphore(value: 0)
        let status = Mutex<Int32?>(nil)
        Thread {
            let seen = ChildEnd.wait(pid)
            status.withLock { $0 = seen }
            ended.signal()
        }.start()
        if ended.wait(timeout: .now() + deadline) == .timedOut {
            let command = ([executableURL?.path ?? "?"] + (arguments ?? [])).joined(separator: " ")
            let stacks = Self.threadStacks(of: pid)
            kill(pid, SIGKILL)
            ended.wait()
            throw StuckProcess(description: "\(command) was still running after \(Int(deadline)) s and was killed; its threads:\n\(stacks)")
        }
        if let seen = status.withLock({ $0 }) { return seen }
        // Foundation reaped it first, so it knows already.
        waitUntilExit()
        return terminationStatus
    }

    /// Every thread's stack of a running process, from gdb where it is installed.
    static func threadStacks(of pid: Int32) -> String {
        guard let gdb = Command.find("gdb") else { return "(gdb is not installed: no stacks)" }
        let result = try? Command.run(gdb, ["-p", String(pid), "-batch", "-nx", "-ex", "thread apply all bt"])
        return result.map { $0.stdout + $0.stderr } ?? "(gdb did not run)"
    }
}

/// The end of a child process, seen by the kernel's `waitid` without reaping the child, which
/// is left to Foundation's `Process` as it expects.
enum ChildEnd {
    /// Blocks until child `pid` has ended; its exit status or the number of the signal that
    /// ended it, or nil when it was reaped already.
    static func wait(_ pid: pid_t) -> Int32? {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { return nil }
        }
        return info._sifields._sigchld.si_status
    }
}
