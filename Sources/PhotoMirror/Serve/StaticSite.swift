import Foundation
import PMCache

/// Answers requests from the files of one cache folder. The effects of serving — opening a file
/// and checking where it really is — live here; every decision is `SitePath`, `ServedFiles`
/// and `ResponsePlan`.
public struct StaticSite: Sendable {
    /// The cache root with every symlink resolved.
    public let root: String

    public init(root: String) throws(ServeError) {
        guard let resolved = realpath(root, nil) else {
            throw ServeError(description: "cannot serve \(root): \(String(cString: strerror(errno)))")
        }
        defer { free(resolved) }
        self.root = String(cString: resolved)
        var info = stat()
        guard stat(self.root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw ServeError(description: "cannot serve \(root): not a folder")
        }
    }

    /// A plan plus, for a file body, the open descriptor the body is read from (the caller
    /// owns it), and the content file it counts as a use of (`CountedAccess`), if any.
    public struct Answer: Sendable {
        public var plan: ResponsePlan
        public var fd: Int32 = -1
        public var accessed: AccessedFile?
    }

    /// `version` is the request's (`HTTP/1.1`); `header` looks up a request header by name.
    public func answer(method: String, rawPath: String, version: String, header: (String) -> String?) -> Answer {
        guard version != "HTTP/1.1" || header("Host") != nil else { return Answer(plan: .badRequest()) }
        guard method == "GET" || method == "HEAD" else { return Answer(plan: .methodNotAllowed()) }
        guard let path = SitePath(raw: rawPath) else { return Answer(plan: .notFound()) }
        guard let opened = open(path) else { return Answer(plan: .notFound()) }
        switch opened {
        case .redirect(let location):
            return Answer(plan: .redirect(to: location))
        case .file(let fd, let file):
            let conditions = RequestConditions(ifMatch: header("If-Match"), ifUnmodifiedSince: header("If-Unmodified-Since"),
                                               ifNoneMatch: header("If-None-Match"),
                                               ifModifiedSince: header("If-Modified-Since"))
            let plan = ResponsePlan.forFile(file, conditions: conditions, range: header("Range"),
                                            ifRange: header("If-Range"))
            let accessed = CountedAccess.of(method: method, status: plan.status, relativePath: file.relativePath)
            guard case .file = plan.body else {
                close(fd)
                return Answer(plan: plan, accessed: accessed)
            }
            return Answer(plan: plan, fd: fd, accessed: accessed)
        }
    }

    private enum Opened {
        case file(Int32, ResponsePlan.File)
        case redirect(String)
    }

    /// Opens what a path names — a folder stands for its index.html — and keeps it only if the
    /// opened file, wherever symlinks led, is inside the root and is a kind we serve.
    private func open(_ path: SitePath) -> Opened? {
        let fd = Glibc.open(root + "/" + path.relative, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, let relative = relativeRealPath(of: fd) else {
            close(fd)
            return nil
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            close(fd)
            let index = SitePath(segments: path.segments + ["index.html"], namesFolder: false)
            guard !path.namesFolder else { return open(index) }
            guard case .file(let indexFD, _)? = open(index) else { return nil }
            close(indexFD)
            return .redirect("/" + path.segments.map(Self.encode).joined(separator: "/") + "/")
        case S_IFREG:
            guard !path.namesFolder, let type = ServedFiles.contentType(of: relative) else { break }
            let modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
            return .file(fd, ResponsePlan.File(relativePath: relative, contentType: type, size: Int(info.st_size),
                                               modifiedNanoseconds: modified))
        default:
            break
        }
        close(fd)
        return nil
    }

    /// Where an open descriptor really is, relative to the root; nil when outside it. Asking
    /// the kernel about the descriptor (not the path) leaves no window for a swapped symlink.
    private func relativeRealPath(of fd: Int32) -> String? {
        guard let resolved = realpath("/proc/self/fd/\(fd)", nil) else { return nil }
        defer { free(resolved) }
        let real = String(cString: resolved)
        if real == root { return "" }
        guard real.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
        return String(real.dropFirst(root == "/" ? 1 : root.count + 1))
    }

    private static func encode(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#", ";"])) ?? segment
    }
}

public struct ServeError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
