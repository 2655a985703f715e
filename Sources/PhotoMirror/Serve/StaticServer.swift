import Foundation
import ServeShim
import Synchronization

/// `photomirror serve`'s HTTP server: libmicrohttpd, listening on its own threads (never the
/// Swift cooperative pool), answering every request from a `StaticSite`.
public final class StaticServer: Sendable {
    public let port: Int
    private let daemon: Mutex<DaemonHandle?>
    private let site: Unmanaged<SiteBox>

    /// `accesses`, when given, is told of every content file a request was answered with.
    /// `limits.total` must fit the process's open-file limit (`ConnectionLimits.fitting`).
    public init(site: StaticSite, bindAddress: String, port: Int, threads: Int = 4,
                limits: ConnectionLimits = ConnectionLimits(), accesses: AccessRecorder? = nil) throws(ServeError) {
        let box = Unmanaged.passRetained(SiteBox(site, accesses: accesses))
        var message = [CChar](repeating: 0, count: 256)
        let daemonLimits = pm_serve_limits(
            threads: UInt32(clamping: threads), max_connections: UInt32(clamping: limits.total),
            max_per_client: UInt32(clamping: limits.perClient),
            idle_timeout_seconds: UInt32(ConnectionLimits.idleTimeoutSeconds),
            waiting_at_most: UInt32(clamping: limits.waitingAtMost),
            request_deadline_seconds: UInt32(ConnectionLimits.requestDeadlineSeconds))
        guard let started = pm_serve_start(bindAddress, UInt16(clamping: port), daemonLimits, serveHandler,
                                           box.toOpaque(), &message, message.count)
        else {
            box.release()
            throw ServeError(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.site = box
        self.port = Int(pm_serve_port(started))
        daemon = Mutex(DaemonHandle(pointer: started))
    }

    /// Stops listening and waits for the daemon's threads to finish their requests.
    public func stop() {
        guard let handle = daemon.withLock({ state in defer { state = nil }; return state }) else { return }
        pm_serve_stop(handle.pointer)
        site.release()
    }

    deinit { stop() }
}

/// The daemon pointer. Only `stop` touches it, once, under the mutex; libmicrohttpd's own
/// threads use it internally.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The site and the access recorder, passed through C as the handler's context.
private final class SiteBox: Sendable {
    let site: StaticSite
    let accesses: AccessRecorder?
    init(_ site: StaticSite, accesses: AccessRecorder?) { (self.site, self.accesses) = (site, accesses) }
}

/// Runs on a libmicrohttpd thread for every request.
private let serveHandler: pm_serve_handler = { context, connection, method, rawPath, version in
    guard let context, let connection, let method, let rawPath, let version else { return 0 }
    let box = Unmanaged<SiteBox>.fromOpaque(context).takeUnretainedValue()
    let answer = box.site.answer(method: String(cString: method), rawPath: String(cString: rawPath),
                                 version: String(cString: version)) { name in
        pm_serve_request_header(connection, name).map { String(cString: $0) }
    }
    let queued = respond(connection, answer)
    // Only an answer that is on its way counts; the recorder does no I/O here.
    if queued != 0, let accessed = answer.accessed { box.accesses?.record(accessed) }
    return queued
}

private func respond(_ connection: OpaquePointer, _ answer: StaticSite.Answer) -> Int32 {
    let plan = answer.plan
    var names = plan.headers.map { strdup($0.name) }
    var values = plan.headers.map { strdup($0.value) }
    defer {
        names.forEach { free($0) }
        values.forEach { free($0) }
    }
    var text: [CChar] = []
    var offset = 0, length = 0
    switch plan.body {
    case .none: break
    case .file(let start, let count): (offset, length) = (start, count)
    case .text(let string): text = Array(string.utf8CString.dropLast())
    }
    return names.withUnsafeMutableBufferPointer { names in
        values.withUnsafeMutableBufferPointer { values in
            names.withMemoryRebound(to: UnsafePointer<CChar>?.self) { names in
                values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                    pm_serve_respond(connection, UInt32(plan.status), answer.fd, UInt64(offset), UInt64(length),
                                     text, text.count, names.baseAddress, values.baseAddress, names.count)
                }
            }
        }
    }
}
