import Testing
@testable import PhotoMirror

/// How serve sizes its connection cap to the open-file limit.
@Suite struct ConnectionLimitsTests {
    @Test func eachConnectionMayHoldASocketAndAFileBesidesAFewOthers() {
        #expect(ConnectionLimits(perClient: 64, total: 1024).openFilesNeeded == 2 * 1024 + 64)
    }

    @Test func aLimitThatFitsKeepsTheTotal() {
        let limits = ConnectionLimits(perClient: 64, total: 1024)
        #expect(limits.fitting(openFiles: limits.openFilesNeeded) == limits)
        #expect(limits.fitting(openFiles: 1_048_576) == limits)
    }

    @Test func aSmallerLimitLowersOnlyTheTotal() {
        let limits = ConnectionLimits(perClient: 64, total: 1024).fitting(openFiles: 1024)
        #expect(limits.total == (1024 - 64) / 2)
        #expect(limits.perClient == 64)
        #expect(limits.openFilesNeeded <= 1024)
    }

    @Test func evenATinyLimitLeavesOneConnection() {
        #expect(ConnectionLimits(perClient: 0, total: 1024).fitting(openFiles: 20).total == 1)
    }

    @Test func aShareOfTheTotalIsKeptForNewcomers() {
        #expect(ConnectionLimits(total: 1024).waitingAtMost == 1024 - 64)
        #expect(ConnectionLimits(perClient: 40, total: 200).waitingAtMost == 200 - 12)
        #expect(ConnectionLimits(perClient: 0, total: 8).waitingAtMost == 7)
        #expect(ConnectionLimits(perClient: 0, total: 1).waitingAtMost == 0)
        #expect(ConnectionLimits(total: 100_000).waitingAtMost == 100_000 - 64)
    }
}
