import PhotoMirror

/// `photomirror verify`: print what is wrong; exit 1 on damage.
struct VerifyCommand {
    let arguments: Arguments

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, spec: .init(valued: ["cache"], flags: ["quiet"]))
        guard arguments.operands.isEmpty else { throw UsageError("verify takes no operands") }
    }

    func run() async throws(UsageError) -> ExitCode {
        let root = try CacheOption.resolve(arguments)
        let report: VerifyReport
        do {
            report = try await Verifier(cacheRoot: root).run()
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        for line in report.damage { Output.err("damage: \(line)\n") }
        for line in report.garbage { Output.err("garbage: \(line)\n") }
        let verdict = report.isHealthy ? "ok" : "DAMAGED"
        Output.err("verify \(verdict): \(report.checkedFiles) files and \(report.checkedManifests) manifests checked, "
            + "\(report.damage.count) damaged, \(report.garbage.count) garbage\n")
        return report.isHealthy ? .ok : .itemsFailed
    }
}
