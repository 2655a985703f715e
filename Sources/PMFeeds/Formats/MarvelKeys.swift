/// A Marvel developer account's key pair. The private key only ever goes into the request's
/// digest (`MarvelSigner`), never into a URL.
public struct MarvelKeys: Sendable {
    public var publicKey: String
    public var privateKey: String

    public init(publicKey: String, privateKey: String) {
        self.publicKey = publicKey
        self.privateKey = privateKey
    }
}
