import PMLoading
import PMSupport

/// S3's REST API over the shared HTTP loader: libcurl signs every request (SigV4), so transfers
/// run on the loader's curl multi thread beside the sync's downloads, under its retry policy
/// when the loader is a `RetryingLoader`.
public struct S3Client: Sendable {
    public let configuration: S3Configuration
    let loader: any HTTPLoading
    let addressing: S3Addressing

    public init(configuration: S3Configuration, loader: any HTTPLoading) {
        self.configuration = configuration
        self.loader = loader
        addressing = S3Addressing(endpoint: configuration.endpoint, region: configuration.region)
    }

    /// One signed request, its 2xx response back. `accepting` lists other statuses the
    /// operation handles itself (404 for HEAD and GET); any other answer becomes an `S3Error`
    /// with S3's error code and message. `bodySHA256`, when the caller already has it, spares
    /// hashing the body again; S3 checks it against the bytes (400 BadDigest).
    func send(_ operation: String, method: HTTPMethod, bucket: String, key: String? = nil, query: S3Query = [:],
              headers: [String: String] = [:], body: [UInt8]? = nil, bodySHA256: String? = nil,
              maxBytes: Int = 50_000_000, accepting: Set<Int> = []) async throws(S3Error) -> HTTPResponse {
        let fail = { (reason: S3Error.Reason) in
            S3Error(operation: operation, bucket: bucket, key: key, reason: reason)
                .redacting(configuration.credentials.secretAccessKey)
                .redacting(configuration.credentials.sessionToken ?? "")
        }
        if let problem = S3Names.bucketProblem(bucket) ?? key.flatMap(S3Names.keyProblem) {
            throw fail(.invalidRequest(problem))
        }
        if let problem = headers.lazy.compactMap({ S3Names.headerValueProblem($0.key, $0.value) }).first {
            throw fail(.invalidRequest(problem))
        }
        var request = HTTPRequest(url: addressing.url(bucket: bucket, key: key, query: query))
        request.method = method
        request.body = body
        request.timeout = configuration.requestTimeout
        request.maxBytes = maxBytes
        request.headers = headers
        // libcurl 7.88 neither sends nor computes this header, and S3 refuses requests without it.
        request.headers["x-amz-content-sha256"] = bodySHA256 ?? Digest.sha256Hex(body ?? [])
        if let token = configuration.credentials.sessionToken {
            request.headers["x-amz-security-token"] = token
        }
        request.signing = AWSSigning(provider: configuration.signingProvider,
                                     user: configuration.credentials.accessKeyID,
                                     password: configuration.credentials.secretAccessKey)
        let response: HTTPResponse
        do {
            response = try await loader.fetch(request)
        } catch let error as HTTPError {
            throw fail(.transport(error))
        } catch {
            throw fail(.transport(.transport(code: -1, message: "\(error)")))
        }
        guard response.isSuccess || accepting.contains(response.status) else {
            let body = S3ErrorBody.parse(response.body)
            throw fail(.service(status: response.status, code: body?.code, message: body?.message))
        }
        return response
    }

    func malformed(_ operation: String, bucket: String, key: String? = nil, _ detail: String) -> S3Error {
        S3Error(operation: operation, bucket: bucket, key: key, reason: .malformedResponse(detail))
            .redacting(configuration.credentials.secretAccessKey)
    }
}
