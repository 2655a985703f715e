import Foundation
import PMLoading
import PMObjectStore
import PMSupport
import XCTest

/// PMObjectStore's S3Client against a real S3 implementation (OpenStack Swift's s3api on
/// 127.0.0.1), through the same retrying curl loader a sync uses. One store for the process,
/// a fresh bucket per test.
final class S3ClientStoreTests: XCTestCase {
    private var store: ObjectStore!
    private var loader: CurlLoader!
    private var client: S3Client!
    private var bucket = ""

    override func setUp() async throws {
        store = try ObjectStore.shared()
        loader = CurlLoader(maxConnections: 16)
        client = makeClient(secret: store.secretAccessKey)
        bucket = store.makeBucketName(name)
        try await client.createBucket(bucket)
    }

    override func tearDown() {
        loader?.shutdown()
    }

    private func makeClient(secret: String) -> S3Client {
        let credentials = S3Credentials(accessKeyID: store.accessKeyID, secretAccessKey: secret)
        let configuration = S3Configuration(endpoint: store.endpoint, region: store.region, credentials: credentials)
        return S3Client(configuration: configuration, loader: RetryingLoader(base: loader, policy: RetryPolicy()))
    }

    func testPutHeadAndGetRoundTripBytesTypesAndMetadata() async throws {
        let bytes = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let sha256 = Digest.sha256Hex(bytes)
        // Spaces, '+', '~', a non-ASCII letter and a '..' segment: each must be encoded (or kept) exactly
        // as SigV4 canonicalises it, else the store answers SignatureDoesNotMatch or files it elsewhere.
        let key = "originals/ab/../c d+é~(1).jpg"
        let etag = try await client.putObject(bucket: bucket, key: key, bytes: bytes, contentType: "image/jpeg",
                                              cacheControl: "public, max-age=31536000, immutable",
                                              metadata: ["sha256": sha256])
        XCTAssertEqual(etag, Digest.md5Hex(bytes))

        let info = try await client.headObject(bucket: bucket, key: key)
        XCTAssertEqual(info?.size, bytes.count)
        XCTAssertEqual(info?.etag, etag)
        XCTAssertEqual(info?.contentType, "image/jpeg")
        XCTAssertEqual(info?.cacheControl, "public, max-age=31536000, immutable")
        XCTAssertEqual(info?.metadata["sha256"], sha256)
        XCTAssertNotNil(info?.lastModified)

        let object = try await client.getObject(bucket: bucket, key: key)
        XCTAssertEqual(object?.bytes, bytes)
        XCTAssertEqual(object?.sha256, sha256)
        XCTAssertEqual(object?.info.metadata["sha256"], sha256)
        XCTAssertEqual(object?.info.contentType, "image/jpeg")

        // The key is one object, not "originals/c d+é~(1).jpg": nothing normalised the '..'.
        let listed = try await client.listObjects(bucket: bucket)
        XCTAssertEqual(listed.map(\.key), [key])
        XCTAssertEqual(listed.first?.size, bytes.count)
        XCTAssertEqual(listed.first?.etag, etag)
    }

    func testALargeOriginalRoundTrips() async throws {
        // Past libcurl's 1 MB threshold for `Expect: 100-continue`, and past S3's 5 MB multipart minimum.
        let bytes = (0..<6_000_000).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 11)) }
        try await client.putObject(bucket: bucket, key: "originals/large.jpg", bytes: bytes, contentType: "image/jpeg")
        let info = try await client.headObject(bucket: bucket, key: "originals/large.jpg")
        XCTAssertEqual(info?.size, bytes.count)
        let object = try await client.getObject(bucket: bucket, key: "originals/large.jpg")
        XCTAssertEqual(object?.sha256, Digest.sha256Hex(bytes))
    }

    func testAPutWhoseGivenDigestDoesNotMatchItsBytesIsRefused() async throws {
        let bytes = Array("the real bytes".utf8)
        try await client.putObject(bucket: bucket, key: "ok", bytes: bytes, contentType: "text/plain",
                                   sha256: Digest.sha256Hex(bytes))
        do {
            try await client.putObject(bucket: bucket, key: "bad", bytes: bytes, contentType: "text/plain",
                                       sha256: Digest.sha256Hex(Array("other bytes".utf8)))
            XCTFail("the store took bytes that do not match their x-amz-content-sha256")
        } catch {
            XCTAssertEqual(error.status, 400, "\(error)")
        }
        let keys = try await client.listObjects(bucket: bucket).map(\.key)
        XCTAssertEqual(keys, ["ok"])
    }

    func testMissingKeysAreNilButAMissingBucketIsAnError() async throws {
        let head = try await client.headObject(bucket: bucket, key: "nothing/here")
        XCTAssertNil(head)
        let get = try await client.getObject(bucket: bucket, key: "nothing/here")
        XCTAssertNil(get)
        let missingBucket = store.makeBucketName("never-created")
        do {
            _ = try await client.getObject(bucket: missingBucket, key: "x")
            XCTFail("GET from a bucket that does not exist succeeded")
        } catch {
            XCTAssertEqual(error.code, "NoSuchBucket")
            XCTAssertTrue(error.description.contains("GetObject of s3://\(missingBucket)/x"), error.description)
        }
    }

    func testCreatingABucketAgainIsFine() async throws {
        try await client.createBucket(bucket)
    }

    func testListingFollowsContinuationTokensUnderAPrefix() async throws {
        let keys = (1...5).map { "manifests/feed-\($0).json" }
        for (index, key) in keys.enumerated() {
            try await client.putObject(bucket: bucket, key: key, bytes: Array(repeating: 0x41, count: index + 1),
                                       contentType: "application/json")
        }
        try await client.putObject(bucket: bucket, key: "manifestsX/outside.json", bytes: [1], contentType: "application/json")

        let firstPage = try await client.listObjectsPage(bucket: bucket, prefix: "manifests/", maxKeys: 2)
        XCTAssertEqual(firstPage.objects.map(\.key), Array(keys.prefix(2)))
        XCTAssertNotNil(firstPage.nextContinuationToken, "5 objects in pages of 2 must continue")

        let all = try await client.listObjects(bucket: bucket, prefix: "manifests/", pageSize: 2)
        XCTAssertEqual(all.map(\.key), keys)
        XCTAssertEqual(all.map(\.size), [1, 2, 3, 4, 5])
        XCTAssertTrue(all.allSatisfy { $0.lastModified != nil && $0.etag.count == 32 })
    }

    func testDeleteObjectsRemovesTheKeysGiven() async throws {
        let keys = ["a/1", "a/2", "a/3", "a/4"]
        for key in keys {
            try await client.putObject(bucket: bucket, key: key, bytes: Array(key.utf8), contentType: "text/plain")
        }
        let failures = try await client.deleteObjects(bucket: bucket, keys: ["a/1", "a/3", "a/4"])
        XCTAssertEqual(failures, [])
        let remaining = try await client.listObjects(bucket: bucket)
        XCTAssertEqual(remaining.map(\.key), ["a/2"])
        // S3 counts a key that is already gone as deleted.
        let again = try await client.deleteObjects(bucket: bucket, keys: ["a/1"])
        XCTAssertEqual(again, [])
    }

    func testPublicReadBucketServesObjectsWithoutSigning() async throws {
        let page = Array("<!doctype html><title>gallery</title>".utf8)
        try await client.putObject(bucket: bucket, key: "index.html", bytes: page, contentType: "text/html; charset=utf-8",
                                   cacheControl: "public, max-age=60")
        let url = "\(store.publicBaseURL)/\(bucket)/index.html"
        let before = try await loader.fetch(HTTPRequest(url: url))
        XCTAssertFalse(before.isSuccess, "the bucket was readable before it was made public: \(before)")

        try await client.setBucketPublicRead(bucket)
        let after = try await loader.fetch(HTTPRequest(url: url))
        XCTAssertEqual(after.status, 200)
        XCTAssertEqual(after.body, page)
        XCTAssertEqual(after.contentType, "text/html; charset=utf-8")
        XCTAssertEqual(after.headers["cache-control"], "public, max-age=60")
    }

    func testAWrongSecretFailsWithS3sReasonAndNeverShowsTheSecret() async throws {
        let wrongSecret = "wrong-secret-" + UUID().uuidString
        let impostor = makeClient(secret: wrongSecret)
        do {
            try await impostor.putObject(bucket: bucket, key: "k", bytes: [1, 2, 3], contentType: "application/octet-stream")
            XCTFail("a PUT signed with a wrong secret succeeded")
        } catch {
            XCTAssertEqual(error.status, 403)
            XCTAssertEqual(error.code, "SignatureDoesNotMatch")
            XCTAssertEqual(error.operation, "PutObject")
            let text = "\(error) \(String(reflecting: error))"
            XCTAssertTrue(text.contains("s3://\(bucket)/k"), text)
            XCTAssertFalse(text.contains(wrongSecret), text)
            XCTAssertFalse(text.contains(store.secretAccessKey), text)
        }
        let head = try await client.headObject(bucket: bucket, key: "k")
        XCTAssertNil(head, "the refused PUT stored something")
    }
}
