import CurlShim
import Foundation

/// HTTP(S) loader on libcurl's multi interface: one dedicated thread runs every transfer,
/// so thousands of downloads cost no threads and never block Swift's cooperative pool.
///
/// Cancelling the calling task aborts its transfer promptly and throws `HTTPError.cancelled`
/// (not `CancellationError`), the same error `shutdown()` gives pending requests, so callers
/// match one case.
public final class CurlLoader: HTTPTransport, Sendable {
    private let mailbox: CurlMailbox

    /// What every request says it is, unless the operator names another (`--user-agent`).
    public static let defaultUserAgent = "photomirror/0.1 (+https://github.com/photomirror)"

    /// `maxConnections` caps open connections in total, `maxPerHost` (at most that) those to one
    /// host; requests beyond them wait inside libcurl for a free connection (their timeouts keep
    /// running), so callers keep to the limits themselves (`PoliteLoader`) and these are a backstop.
    /// A host that speaks HTTP/2 gets one connection, its requests multiplexed over it as streams
    /// (up to libcurl's 100 per connection), so `maxPerHost` then bounds connections, not requests.
    /// `certificates` replaces libcurl's CA bundle; by default it comes from the environment
    /// (`CertificateBundle.variables`).
    public init(userAgent: String = CurlLoader.defaultUserAgent, maxConnections: Int = 16, maxPerHost: Int? = nil,
                certificates: CertificateBundle? = CertificateBundle.fromEnvironment(ProcessInfo.processInfo.environment),
                addresses: AddressClassifier = .fromEnvironment(ProcessInfo.processInfo.environment)) {
        CurlGlobal.initialize()
        guard let multi = curl_multi_init() else { preconditionFailure("curl_multi_init failed") }
        let limit = max(1, maxConnections)
        _ = pm_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, limit)
        _ = pm_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, min(limit, max(1, maxPerHost ?? limit)))
        _ = pm_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, limit)
        // libcurl's default since 7.62, stated because one connection per HTTP/2 host relies on it.
        _ = pm_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        let mailbox = CurlMailbox(multi: MultiHandle(raw: multi))
        self.mailbox = mailbox
        let thread = Thread {
            CurlMultiLoop(mailbox: mailbox, userAgent: userAgent, certificates: certificates, addresses: addresses,
                          maxSpareHandles: limit).run()
        }
        thread.name = "photomirror.curl"
        thread.start()
    }

    deinit {
        shutdown()
    }

    public func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.scheme == "http" || request.scheme == "https" else {
            throw HTTPError.unsupportedScheme(request.scheme)
        }
        let id = mailbox.makeID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                mailbox.submit(CurlJob(id: id, request: request, continuation: continuation))
            }
        } onCancel: {
            mailbox.cancel(id)
        }
    }

    /// Stops the loop thread without waiting for it; in-flight and later requests fail with
    /// `HTTPError.cancelled`. Idempotent.
    public func shutdown() {
        mailbox.stop()
    }
}
