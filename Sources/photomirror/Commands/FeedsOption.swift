import Foundation
import PMFeeds

/// `sync --feeds FILE` (and watch's): the feeds named on the command line (`FeedOperand`), then those of each list in turn,
/// each URL once. The lists' OPML titles are not passed on: the engine takes URLs only, and a
/// feed names itself when it is fetched.
enum FeedsOption {
    static func feedURLs(operands: [String], files: [String], command: String = "sync") throws(UsageError) -> [String] {
        var urls: [String] = []
        for operand in operands { urls.append(try FeedOperand.url(operand)) }
        for file in files { urls += try subscriptions(in: file).map(\.url) }
        var seen: Set<String> = []
        let unique = urls.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else {
            throw UsageError(files.isEmpty ? "\(command) needs at least one feed URL or --feeds FILE"
                                           : "\(command) needs at least one feed: --feeds \(files.joined(separator: ", ")) named none")
        }
        return unique
    }

    /// `-` is stdin, whose relative `xmlUrl`s resolve against the working directory.
    private static func subscriptions(in file: String) throws(UsageError) -> [Subscription] {
        let bytes: [UInt8], location: URL
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if file == "-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
            location = cwd.appendingPathComponent("stdin")
        } else {
            location = URL(fileURLWithPath: file, relativeTo: cwd).absoluteURL
            do {
                bytes = Array(try Data(contentsOf: location))
            } catch {
                let reason = (error as NSError).localizedFailureReason ?? "could not be read"
                throw UsageError("--feeds \(file): \(reason)")
            }
        }
        do {
            return try SubscriptionList.parse(bytes, fileURL: location)
        } catch {
            throw UsageError("--feeds \(file == "-" ? "(stdin)" : file): \(error)")
        }
    }
}
