import PMLoading
import PMObjectStore
import XCTest

/// A test case against the real object store (`ObjectStore.shared()`): a client of its account
/// to look at a bucket behind the binary's back, a bucket name of its own per test, and the
/// binary run with the store's credentials.
class ObjectStoreTestCase: XCTestCase {
    var store: ObjectStore!
    var loader: CurlLoader!
    var client: S3Client!
    var bucket = ""

    override func setUp() async throws {
        store = try ObjectStore.shared()
        loader = CurlLoader(maxConnections: 16)
        client = store.client(over: loader)
        bucket = store.makeBucketName(name)
    }

    override func tearDown() {
        loader?.shutdown()
    }

    var photomirror: Photomirror { Photomirror(environment: store.environment) }
}
