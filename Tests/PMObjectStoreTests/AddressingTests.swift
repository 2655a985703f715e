import Testing
@testable import PMObjectStore

@Suite struct AddressingTests {
    private let local = S3Addressing(endpoint: "http://127.0.0.1:9000", region: "us-east-1")
    private let aws = S3Addressing(endpoint: nil, region: "eu-west-3")

    @Test func anEndpointMeansPathStyle() {
        #expect(local.url(bucket: "photos", key: "originals/ab/cd.jpg") == "http://127.0.0.1:9000/photos/originals/ab/cd.jpg")
        #expect(local.url(bucket: "photos") == "http://127.0.0.1:9000/photos")
        #expect(local.url(bucket: "photos", query: ["acl": ""]) == "http://127.0.0.1:9000/photos?acl=")
    }

    @Test func awsMeansVirtualHostStyleInTheRegion() {
        #expect(aws.url(bucket: "photos", key: "index.html") == "https://photos.s3.eu-west-3.amazonaws.com/index.html")
        #expect(aws.url(bucket: "photos", query: ["delete": ""]) == "https://photos.s3.eu-west-3.amazonaws.com/?delete=")
    }

    @Test func aDottedBucketOnAWSIsAddressedByPathToKeepTLSValid() {
        #expect(aws.url(bucket: "my.photos", key: "a") == "https://s3.eu-west-3.amazonaws.com/my.photos/a")
    }

    @Test func keysAreAWSEncodedExceptTheirSlashes() {
        #expect(S3Encoding.path("a/b c+d/é~_-.x") == "a/b%20c%2Bd/%C3%A9~_-.x")
        #expect(S3Encoding.path("100%/?#&=") == "100%25/%3F%23%26%3D")
        #expect(S3Encoding.path("a/../b") == "a/../b")
    }

    @Test func queryComponentsEncodeSlashesToo() {
        #expect(S3Encoding.queryComponent("a/b/") == "a%2Fb%2F")
        #expect(S3Encoding.queryComponent("YS8yICYgYi5qcGc=") == "YS8yICYgYi5qcGc%3D")
        #expect(S3Encoding.queryComponent("x y*") == "x%20y%2A")
    }

    @Test func queriesAreSortedEncodedAndFlagsHaveAnEmptyValue() {
        var query: S3Query = ["prefix": "feeds/a b/", "list-type": "2"]
        query.add("continuation-token", "1+2/3=")
        query.add("max-keys", "2")
        #expect(query.encoded == "continuation-token=1%2B2%2F3%3D&list-type=2&max-keys=2&prefix=feeds%2Fa%20b%2F")
        #expect(S3Query(dictionaryLiteral: ("delete", "")).encoded == "delete=")
        #expect(([:] as S3Query).encoded == "")
    }

    @Test func sortingIsByEncodedNameThenValue() {
        let query: S3Query = ["b": "2", "a": "z", "A": "1"]
        #expect(query.encoded == "A=1&a=z&b=2")
    }
}

@Suite struct NameCheckTests {
    @Test(arguments: ["photos", "my.photos-2", "abc", String(repeating: "a", count: 63)])
    func validBucketNames(_ name: String) {
        #expect(S3Names.bucketProblem(name) == nil)
    }

    @Test(arguments: ["ab", "Photos", "a/b", "bucket?acl", "-photos", "photos.", String(repeating: "a", count: 64), "a b c"])
    func invalidBucketNames(_ name: String) {
        #expect(S3Names.bucketProblem(name) != nil)
    }

    @Test func keysHaveOneTo1024Bytes() {
        #expect(S3Names.keyProblem("") != nil)
        #expect(S3Names.keyProblem(String(repeating: "é", count: 512)) == nil)
        #expect(S3Names.keyProblem(String(repeating: "é", count: 513)) != nil)
    }

    @Test func headerValuesCannotEndTheHeader() {
        #expect(S3Names.headerValueProblem("Content-Type", "text/html; charset=utf-8") == nil)
        #expect(S3Names.headerValueProblem("Content-Type", "text/html\r\nx-amz-acl: public-read") != nil)
    }

    @Test func metadataIsATokenNameAndAPrintableValue() {
        #expect(S3Names.metadataProblem("sha256", String(repeating: "f", count: 64)) == nil)
        #expect(S3Names.metadataProblem("sha 256", "x") != nil)
        #expect(S3Names.metadataProblem("", "x") != nil)
        #expect(S3Names.metadataProblem("title", "café") != nil)
        #expect(S3Names.metadataProblem("title", "a\nb") != nil)
    }
}
