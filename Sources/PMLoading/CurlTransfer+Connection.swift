import CurlShim

extension CurlTransfer {
    /// HTTP/2 wherever TLS can negotiate it (ALPN), plain http staying HTTP/1.1, and the
    /// certificates TLS peers are checked against.
    func connectionOptions(certificates: CertificateBundle?) -> [CURLcode] {
        var results = [pm_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))]
        if request.waitsForMultiplexing {
            results.append(pm_setopt_long(easy, CURLOPT_PIPEWAIT, 1))
        }
        if request.freshConnection {
            results.append(pm_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1))
        }
        if let certificates {
            results.append(pm_setopt_string(easy, CURLOPT_CAINFO, certificates.path))
        }
        return results
    }
}

extension HTTPRequest {
    /// Whether the request should wait for a connection still being set up to its host to
    /// say whether it multiplexes, rather than open one more: over TLS it may (HTTP/2), and
    /// then every transfer to the host rides one connection; a host that answers HTTP/1.1
    /// costs the transfers that waited one handshake, once. A plain http connection never
    /// multiplexes, so waiting there would only delay the host's first transfers.
    var waitsForMultiplexing: Bool { scheme == "https" }
}
