import Foundation
import PMLoading
import PMSupport
import Synchronization
import Testing
@testable import PMObjectStore

/// An in-memory loader: records each request and answers from a closure, so the client's
/// requests (method, URL, headers, body, signing) and its reading of answers are checked
/// without a network. The real store is in IntegrationTests' S3ClientStoreTests.
final class ScriptedLoader: HTTPLoading {
    private let answer: @Sendable (HTTPRequest) -> HTTPResponse
    private let recorded = Mutex<[HTTPRequest]>([])

    init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.answer = answer
    }

    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        return answer(request)
    }
}

private func response(_ request: HTTPRequest, _ status: Int, _ body: String = "", headers: [String: String] = [:]) -> HTTPResponse {
    HTTPResponse(url: request.url, status: status, headers: headers, body: Array(body.utf8))
}

@Suite struct S3ClientRequestTests {
    private let credentials = S3Credentials(accessKeyID: "AKID", secretAccessKey: "SECRET-KEY", sessionToken: "TOKEN")

    private func client(_ loader: ScriptedLoader, region: String = "us-east-1") -> S3Client {
        S3Client(configuration: S3Configuration(endpoint: "http://store:9000", region: region, credentials: credentials),
                 loader: loader)
    }

    @Test func aPutIsSignedAndCarriesItsBodyDigestTypesAndMetadata() async throws {
        let loader = ScriptedLoader { response($0, 200, headers: ["etag": "\"abc\""]) }
        let bytes: [UInt8] = [1, 2, 3, 4]
        let etag = try await client(loader).putObject(bucket: "photos", key: "originals/a b.jpg", bytes: bytes,
                                                      contentType: "image/jpeg", cacheControl: "max-age=60",
                                                      metadata: ["SHA256": "ff00"])
        #expect(etag == "abc")
        let request = try #require(loader.requests.first)
        #expect(request.method == .put)
        #expect(request.url == "http://store:9000/photos/originals/a%20b.jpg")
        #expect(request.body == bytes)
        #expect(request.headers["x-amz-content-sha256"] == Digest.sha256Hex(bytes))
        #expect(request.headers["Content-Type"] == "image/jpeg")
        #expect(request.headers["Cache-Control"] == "max-age=60")
        #expect(request.headers["x-amz-meta-sha256"] == "ff00")
        #expect(request.headers["x-amz-security-token"] == "TOKEN")
        #expect(request.signing == AWSSigning(provider: "aws:amz:us-east-1:s3", user: "AKID", password: "SECRET-KEY"))
    }

    @Test func requestsWithoutABodyDeclareTheEmptyDigest() async throws {
        let loader = ScriptedLoader { response($0, 200) }
        _ = try await client(loader).headObject(bucket: "photos", key: "k")
        let request = try #require(loader.requests.first)
        #expect(request.method == .head)
        #expect(request.headers["x-amz-content-sha256"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func headReadsSizeETagDatesTypesAndMetadata() async throws {
        let loader = ScriptedLoader {
            response($0, 200, headers: ["content-length": "1234", "etag": "\"d41d8cd9\"", "content-type": "image/png",
                                        "last-modified": "Tue, 01 Dec 2026 10:58:40 GMT", "cache-control": "immutable",
                                        "x-amz-meta-sha256": "beef", "x-amz-request-id": "tx1"])
        }
        let info = try #require(try await client(loader).headObject(bucket: "photos", key: "k"))
        #expect(info.size == 1234)
        #expect(info.etag == "d41d8cd9")
        #expect(info.contentType == "image/png")
        #expect(info.cacheControl == "immutable")
        #expect(info.metadata == ["sha256": "beef"])
        #expect(info.lastModified == Date(timeIntervalSince1970: 1_796_122_720))
    }

    @Test func aMissingKeyIsNilForHeadAndGet() async throws {
        let loader = ScriptedLoader { request in
            request.method == .head ? response(request, 404)
                : response(request, 404, "<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>")
        }
        #expect(try await client(loader).headObject(bucket: "photos", key: "k") == nil)
        #expect(try await client(loader).getObject(bucket: "photos", key: "k") == nil)
    }

    @Test func aMissingBucketIsAnErrorForGet() async throws {
        let loader = ScriptedLoader { response($0, 404, "<Error><Code>NoSuchBucket</Code><Message>gone</Message></Error>") }
        await #expect(throws: S3Error(operation: "GetObject", bucket: "photos", key: "k",
                                      reason: .service(status: 404, code: "NoSuchBucket", message: "gone"))) {
            try await client(loader).getObject(bucket: "photos", key: "k")
        }
    }

    @Test func getReturnsTheBytesAndTheirDigest() async throws {
        let loader = ScriptedLoader { response($0, 200, "hello", headers: ["content-length": "5", "etag": "\"e\""]) }
        let object = try #require(try await client(loader).getObject(bucket: "photos", key: "k"))
        #expect(object.bytes == Array("hello".utf8))
        #expect(object.sha256 == Digest.sha256Hex(Array("hello".utf8)))
        #expect(object.info.size == 5)
    }

    @Test func errorAnswersBecomeS3ErrorsWithoutTheSecret() async throws {
        let loader = ScriptedLoader {
            response($0, 403, "<Error><Code>SignatureDoesNotMatch</Code><Message>key SECRET-KEY is wrong</Message></Error>")
        }
        do {
            try await client(loader).putObject(bucket: "photos", key: "k", bytes: [], contentType: "text/plain")
            Issue.record("a 403 was taken for success")
        } catch {
            #expect(error.code == "SignatureDoesNotMatch")
            #expect(error.description == "S3 PutObject of s3://photos/k failed: HTTP 403 SignatureDoesNotMatch: key (redacted) is wrong")
        }
    }

    @Test func transportFailuresNameTheOperation() async throws {
        struct Refusing: HTTPLoading {
            func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
                throw HTTPError.transport(code: 7, message: "Failed to connect to store port 9000")
            }
        }
        let client = S3Client(configuration: S3Configuration(endpoint: "http://store:9000", credentials: credentials),
                              loader: Refusing())
        await #expect(throws: S3Error(operation: "ListObjectsV2", bucket: "photos",
                                      reason: .transport(.transport(code: 7, message: "Failed to connect to store port 9000")))) {
            try await client.listObjects(bucket: "photos")
        }
    }

    @Test func badNamesAndHeaderValuesAreRefusedBeforeSending() async throws {
        let loader = ScriptedLoader { response($0, 200) }
        let client = client(loader)
        await #expect(throws: S3Error.self) { try await client.createBucket("Bad/Name") }
        await #expect(throws: S3Error.self) {
            try await client.putObject(bucket: "photos", key: "k", bytes: [], contentType: "text/plain\r\nx-amz-acl: public-read")
        }
        await #expect(throws: S3Error.self) {
            try await client.putObject(bucket: "photos", key: "k", bytes: [], contentType: "text/plain", metadata: ["a b": "c"])
        }
        await #expect(throws: S3Error.self) { try await client.headObject(bucket: "photos", key: "") }
        #expect(loader.requests.isEmpty)
    }

    @Test func createBucketAcceptsOneWeAlreadyOwnAndNamesOtherRegions() async throws {
        let owned = ScriptedLoader { response($0, 409, "<Error><Code>BucketAlreadyOwnedByYou</Code><Message>m</Message></Error>") }
        try await client(owned).createBucket("photos")
        #expect(owned.requests.first?.body == nil)

        let taken = ScriptedLoader { response($0, 409, "<Error><Code>BucketAlreadyExists</Code><Message>m</Message></Error>") }
        await #expect(throws: S3Error.self) { try await client(taken).createBucket("photos") }

        let paris = ScriptedLoader { response($0, 200) }
        try await client(paris, region: "eu-west-3").createBucket("photos")
        let body = String(decoding: paris.requests.first?.body ?? [], as: UTF8.self)
        #expect(body.contains("<LocationConstraint>eu-west-3</LocationConstraint>"))
    }

    @Test func publicReadIsTheCannedACLOnTheBucket() async throws {
        let loader = ScriptedLoader { response($0, 200) }
        try await client(loader).setBucketPublicRead("photos")
        let request = try #require(loader.requests.first)
        #expect(request.method == .put)
        #expect(request.url == "http://store:9000/photos?acl=")
        #expect(request.headers["x-amz-acl"] == "public-read")
    }

    @Test func listingFollowsContinuationTokensUntilThePageIsNotTruncated() async throws {
        let loader = ScriptedLoader { request in
            request.url.contains("continuation-token=")
                ? response(request, 200, ResponseParsingTests.lastPage) : response(request, 200, ResponseParsingTests.truncatedPage)
        }
        let objects = try await client(loader).listObjects(bucket: "fixtures", prefix: "a/", pageSize: 2)
        #expect(objects.map(\.key) == ["a/1.jpg", "a/2 & b.jpg", "a/3.jpg"])
        #expect(loader.requests.map(\.url) == [
            "http://store:9000/fixtures?list-type=2&max-keys=2&prefix=a%2F",
            "http://store:9000/fixtures?continuation-token=YS8yICYgYi5qcGc%3D&list-type=2&max-keys=2&prefix=a%2F",
        ])
    }

    @Test func aListingThatRepeatsItsTokenIsRefusedRatherThanLoopedOn() async throws {
        let loader = ScriptedLoader { response($0, 200, ResponseParsingTests.truncatedPage) }
        await #expect(throws: S3Error.self) { try await client(loader).listObjects(bucket: "fixtures") }
        #expect(loader.requests.count == 2)
    }

    @Test func deletesGoInBatchesWithContentMD5AndReturnTheFailures() async throws {
        let loader = ScriptedLoader { request in
            let body = String(decoding: request.body ?? [], as: UTF8.self)
            let failure = body.contains("<Key>k1500</Key>")
                ? "<Error><Key>k1500</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>" : ""
            return response(request, 200, "<DeleteResult>\(failure)</DeleteResult>")
        }
        let keys = (0..<2001).map { "k\($0)" }
        let failures = try await client(loader).deleteObjects(bucket: "photos", keys: keys)
        #expect(failures == [S3DeleteFailure(key: "k1500", code: "AccessDenied", message: "Access Denied")])
        #expect(loader.requests.count == 3)
        for request in loader.requests {
            let body = try #require(request.body)
            #expect(request.method == .post)
            #expect(request.url == "http://store:9000/photos?delete=")
            #expect(request.headers["Content-MD5"] == Data(Digest.md5(body)).base64EncodedString())
            #expect(request.headers["Content-Type"] == "application/xml")
        }
        let counts = loader.requests.map { String(decoding: $0.body ?? [], as: UTF8.self).components(separatedBy: "<Object>").count - 1 }
        #expect(counts == [1000, 1000, 1])
    }

    @Test func aDeleteAnswerThatIsNotADeleteResultIsAnError() async throws {
        let loader = ScriptedLoader { response($0, 200, "<html/>") }
        await #expect(throws: S3Error(operation: "DeleteObjects", bucket: "photos",
                                      reason: .malformedResponse("the answer is not a DeleteResult"))) {
            try await client(loader).deleteObjects(bucket: "photos", keys: ["a"])
        }
    }
}
