import CurlShim

extension HTTPRequest {
    /// `headers`, plus a Content-Type for a body that has none: libcurl would otherwise label
    /// it application/x-www-form-urlencoded, as it sends every body as a POST's.
    var headersToSend: [String: String] {
        guard method.sendsBody, !headers.keys.contains(where: { $0.lowercased() == "content-type" }) else {
            return headers
        }
        return headers.merging(["Content-Type": "application/octet-stream"]) { own, _ in own }
    }
}

extension CurlTransfer {
    /// The options that make the request a HEAD, PUT, POST or DELETE, and sign it; none for a
    /// plain GET, whose handling stays as it was.
    func methodOptions() -> [CURLcode] {
        var results: [CURLcode] = []
        switch request.method {
        case .get:
            break
        case .head:
            results.append(pm_setopt_long(easy, CURLOPT_NOBODY, 1))
            // A HEAD reads no body, so a large object's Content-Length must not fail it.
            results.append(pm_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, 0))
        case .put, .post:
            let body = request.body ?? []
            results.append(body.withUnsafeBytes { pm_setopt_body(easy, $0.baseAddress, curl_off_t($0.count)) })
            if request.method == .put {
                results.append(pm_setopt_string(easy, CURLOPT_CUSTOMREQUEST, "PUT"))
            }
        case .delete:
            results.append(pm_setopt_string(easy, CURLOPT_CUSTOMREQUEST, "DELETE"))
        }
        if let signing = request.signing {
            results.append(pm_setopt_aws_sigv4(easy, signing.provider, signing.user, signing.password))
            // An object key may hold "." and ".." segments; URL normalisation would name another object.
            results.append(pm_setopt_long(easy, CURLOPT_PATH_AS_IS, 1))
        }
        return results
    }
}
