import PMLoading
import PMObjectStore

extension ObjectStore {
    /// An S3 client of the store's account through `loader`, retrying as a sync does: how a test
    /// looks at a bucket behind the binary's back.
    func client(over loader: CurlLoader) -> S3Client {
        let credentials = S3Credentials(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey)
        return S3Client(configuration: S3Configuration(endpoint: endpoint, region: region, credentials: credentials),
                        loader: RetryingLoader(base: loader, policy: RetryPolicy()))
    }
}
