import CurlShim
import PMSupport

/// One request's life on an easy handle: configuring it, collecting what the callbacks
/// deliver, and turning libcurl's verdict into a response or an `HTTPError`.
/// Lives on the loop thread only.
final class CurlTransfer {
    let id: UInt64
    let request: HTTPRequest
    let continuation: CheckedContinuation<HTTPResponse, any Error>
    let easy: UnsafeMutableRawPointer

    private var body: [UInt8] = []
    private var bodyReserved = false
    private var exceededMaxBytes = false
    // Optional only so `finish` can move the non-copyable hasher out to consume it.
    private var hasher: SHA256Hasher? = SHA256Hasher()
    private var headers = ResponseHeaders()
    private var requestHeaderList: UnsafeMutablePointer<curl_slist>?
    private var classifier = AddressClassifier()
    /// The zone of the first address connected to, and the refusal of a later one.
    private var firstZone: AddressZone?
    private var refusal: HTTPError?
    // libcurl writes its detailed error text here; it must outlive the transfer.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    init(job: CurlJob, easy: UnsafeMutableRawPointer) {
        id = job.id
        request = job.request
        continuation = job.continuation
        self.easy = easy
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        // The loop resets the easy handle before releasing us, so curl no longer points here.
        curl_slist_free_all(requestHeaderList)
        errorBuffer.deallocate()
    }

    /// Sets every option this request needs; returns the first rejection.
    func configure(userAgent: String, certificates: CertificateBundle?, addresses: AddressClassifier) -> HTTPError? {
        classifier = addresses
        for (name, value) in request.headersToSend {
            // "Name;" is libcurl's spelling for a header sent with an empty value.
            let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
            requestHeaderList = curl_slist_append(requestHeaderList, line)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let stallSeconds = max(1, Int(request.stallTimeout.rounded(.up)))
        let results: [CURLcode] = [
            pm_setopt_string(easy, CURLOPT_URL, request.url),
            pm_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            pm_setopt_long(easy, CURLOPT_FOLLOWLOCATION, request.signing == nil ? 1 : 0),
            pm_setopt_long(easy, CURLOPT_MAXREDIRS, max(0, request.maxRedirects)),
            pm_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            pm_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            pm_setopt_string(easy, CURLOPT_USERAGENT, userAgent),
            pm_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, Int(request.timeout * 1000))),
            pm_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1),
            pm_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, stallSeconds),
            pm_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes)),
            pm_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            pm_setopt_ptr(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(requestHeaderList)),
            pm_setopt_ptr(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)),
            pm_setopt_ptr(easy, CURLOPT_PRIVATE, context),
            pm_setopt_write(easy, curlWriteCallback, context),
            pm_setopt_header(easy, curlHeaderCallback, context),
        ] + connectionOptions(certificates: certificates) + methodOptions() + addressOptions(context)
        guard let failed = results.first(where: { $0 != CURLE_OK }) else { return nil }
        return .transport(code: Int(failed.rawValue), message: String(cString: curl_easy_strerror(failed)))
    }

    private func addressOptions(_ context: UnsafeMutableRawPointer) -> [CURLcode] {
        guard request.addressRule != nil else { return [] }
        return [pm_setopt_opensocket(easy, curlOpenSocketCallback, context), pm_setopt_prereq(easy, curlPrereqCallback, context)]
    }

    /// Whether the request's `AddressRule` lets it connect to (or send on a connection to) this
    /// address; the first address seen is the one its home is learnt from.
    func allowsConnection(to address: [UInt8]) -> Bool {
        guard let rule = request.addressRule else { return true }
        let zone = classifier.zone(of: address)
        let first = firstZone ?? zone
        firstZone = first
        guard !rule.admits(zone, first: first) else { return true }
        let home: AddressZone = switch rule {
        case .learnsHome: first
        case .home(let home): home
        }
        refusal = .refusedAddress(url: effectiveURL ?? request.url, address: IPAddressText.text(address), zone: zone, home: home)
        return false
    }

    /// Write callback body. Returns false to abort a body that outgrew `maxBytes`, which also
    /// catches chunked or compressed bodies that declared no (or a smaller) Content-Length.
    func receiveBody(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
        guard body.count + chunk.count <= request.maxBytes else {
            exceededMaxBytes = true
            return false
        }
        if !bodyReserved {
            bodyReserved = true
            var declared: curl_off_t = -1
            if pm_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared) == CURLE_OK, declared > 0 {
                body.reserveCapacity(min(Int(declared), request.maxBytes))
            }
        }
        body.append(contentsOf: chunk)
        hasher?.update(UnsafeRawBufferPointer(chunk))
        return true
    }

    func receiveHeaderLine(_ line: UnsafeBufferPointer<UInt8>) {
        headers.consume(line: line)
    }

    /// Must run before the easy handle is reset: it reads the handle's info.
    func finish(_ code: CURLcode) -> Result<HTTPResponse, HTTPError> {
        if code != CURLE_OK, let refusal { return .failure(refusal) }
        guard code == CURLE_OK else { return .failure(error(for: code)) }
        var status = 0
        _ = pm_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        let sha256 = hasher.take()?.finalizeHex()
        var response = HTTPResponse(url: request.url, effectiveURL: effectiveURL ?? request.url, status: status,
                                    headers: headers.fields, body: body, sha256: sha256)
        response.zone = firstZone
        return .success(response)
    }

    private var effectiveURL: String? {
        var pointer: UnsafePointer<CChar>?
        guard pm_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer else { return nil }
        return String(cString: pointer)
    }

    private func error(for code: CURLcode) -> HTTPError {
        let detail = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_FILESIZE_EXCEEDED:
            return .tooLarge(limit: request.maxBytes)
        case CURLE_WRITE_ERROR where exceededMaxBytes:
            return .tooLarge(limit: request.maxBytes)
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl's low-speed check says "Operation too slow"; every other timeout is the total one.
            return .timedOut(seconds: detail.hasPrefix("Operation too slow") ? request.stallTimeout : request.timeout)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(request.maxRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL:
            // After a refused redirect the effective URL is the target that was refused. An http
            // URL gets this code too when the answer is not HTTP at all ("HTTP/0.9"): most often
            // the excess of an earlier answer on a reused connection, so not a scheme problem.
            let scheme = urlScheme(effectiveURL ?? request.url)
            guard scheme == "http" || scheme == "https" else { return .unsupportedScheme(scheme) }
            return .transport(code: Int(code.rawValue), message: "the answer is not HTTP (\(detail))")
        default:
            return .transport(code: Int(code.rawValue), message: detail)
        }
    }
}
