import Foundation

/// What a feed operand names. With a scheme (`https://…`, `file://…`) it is that URL. Without
/// one it is a local file, relative to the working directory, and must exist. A missing one
/// that reads as a host and path (`example.org/feed`: a dot in its first part, no leading `/`,
/// `.` or `~`) is most likely a URL typed without its scheme, so the error suggests `https://`.
/// Either way the mistake is a usage error found before any cache is created.
enum FeedOperand {
    static func url(_ operand: String) throws(UsageError) -> String {
        if operand.contains("://") { return operand }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let file = URL(fileURLWithPath: operand, relativeTo: cwd).standardizedFileURL
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) {
            guard !isFolder.boolValue else { throw UsageError("\(operand) is a folder, not a feed file") }
            return file.absoluteString
        }
        if looksLikeHost(operand) {
            throw UsageError("\"\(operand)\" has no scheme and is no local file: did you mean https://\(operand) ?")
        }
        throw UsageError("no such feed file: \(operand) (a feed URL starts with http://, https:// or file://)")
    }

    private static func looksLikeHost(_ operand: String) -> Bool {
        guard let first = operand.first, !"/.~".contains(first) else { return false }
        let host = operand.prefix { $0 != "/" }
        return host.contains(".") && !host.contains(" ") && !host.hasSuffix(".")
    }
}
