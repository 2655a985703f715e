import Foundation
import Testing
@testable import PMObjectStore

/// S3's XML answers, captured from OpenStack Swift 2.30's s3api unless marked as from AWS's documentation.
@Suite struct ResponseParsingTests {
    static let truncatedPage = """
        <?xml version='1.0' encoding='UTF-8'?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>fixtures</Name><Prefix>a/</Prefix>\
        <NextContinuationToken>YS8yICYgYi5qcGc=</NextContinuationToken><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys>\
        <IsTruncated>true</IsTruncated><Contents><Key>a/1.jpg</Key><LastModified>2026-12-01T11:06:03.000Z</LastModified>\
        <ETag>"d41d8cd98f00b204e9800998ecf8427e"</ETag><Size>0</Size><StorageClass>STANDARD</StorageClass></Contents>\
        <Contents><Key>a/2 &amp; b.jpg</Key><LastModified>2026-12-01T11:06:03.000Z</LastModified>\
        <ETag>"9b2cf535f27731c974343645a3985328"</ETag><Size>1234</Size><StorageClass>STANDARD</StorageClass></Contents>\
        </ListBucketResult>
        """

    static let lastPage = """
        <?xml version='1.0' encoding='UTF-8'?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>fixtures</Name><Prefix>a/</Prefix>\
        <ContinuationToken>YS8yICYgYi5qcGc=</ContinuationToken><KeyCount>1</KeyCount><MaxKeys>2</MaxKeys>\
        <IsTruncated>false</IsTruncated><Contents><Key>a/3.jpg</Key><LastModified>2026-12-01T11:06:03.000Z</LastModified>\
        <ETag>"d41d8cd98f00b204e9800998ecf8427e"</ETag><Size>0</Size><StorageClass>STANDARD</StorageClass></Contents>\
        </ListBucketResult>
        """

    @Test func aTruncatedPageGivesItsObjectsAndTheToken() throws {
        let page = try S3ListPage.parse(Array(Self.truncatedPage.utf8)).get()
        #expect(page.nextContinuationToken == "YS8yICYgYi5qcGc=")
        #expect(page.objects.map(\.key) == ["a/1.jpg", "a/2 & b.jpg"])
        #expect(page.objects.map(\.size) == [0, 1234])
        #expect(page.objects[1].etag == "9b2cf535f27731c974343645a3985328")
        let expected = try Date("2026-12-01T11:06:03Z", strategy: .iso8601)
        #expect(page.objects.allSatisfy { $0.lastModified == expected })
    }

    @Test func theLastPageHasNoToken() throws {
        let page = try S3ListPage.parse(Array(Self.lastPage.utf8)).get()
        #expect(page.nextContinuationToken == nil)
        #expect(page.objects.map(\.key) == ["a/3.jpg"])
    }

    @Test func anEmptyListingIsAnEmptyPage() throws {
        let xml = #"<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix/>"#
            + "<KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated></ListBucketResult>"
        #expect(try S3ListPage.parse(Array(xml.utf8)).get() == S3ListPage(objects: [], nextContinuationToken: nil))
    }

    @Test func aTruncatedPageWithoutATokenIsRefused() {
        let xml = Self.truncatedPage.replacingOccurrences(of: "<NextContinuationToken>YS8yICYgYi5qcGc=</NextContinuationToken>", with: "")
        #expect(throws: ListPageProblem("the listing is truncated but has no NextContinuationToken")) {
            try S3ListPage.parse(Array(xml.utf8)).get()
        }
    }

    @Test func entriesWithoutKeyOrSizeAndOtherDocumentsAreRefused() {
        let noSize = Self.lastPage.replacingOccurrences(of: "<Size>0</Size>", with: "<Size>many</Size>")
        #expect(throws: ListPageProblem("the listing's entry for 'a/3.jpg' has no valid Size")) { try S3ListPage.parse(Array(noSize.utf8)).get() }
        let noKey = Self.lastPage.replacingOccurrences(of: "<Key>a/3.jpg</Key>", with: "")
        #expect(throws: ListPageProblem("an entry of the listing has no Key")) { try S3ListPage.parse(Array(noKey.utf8)).get() }
        #expect(throws: ListPageProblem("expected ListBucketResult, got Error")) {
            try S3ListPage.parse(Array("<Error><Code>x</Code></Error>".utf8)).get()
        }
        #expect(throws: ListPageProblem("the listing is not well-formed XML")) {
            try S3ListPage.parse(Array("<ListBucketResult><Contents>".utf8)).get()
        }
    }

    @Test func errorBodiesGiveCodeAndMessage() {
        let noSuchKey = """
            <?xml version='1.0' encoding='UTF-8'?>
            <Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>\
            <RequestId>txbc864510842546a886680-006b0eaa1a</RequestId><Key>missing</Key></Error>
            """
        #expect(S3ErrorBody.parse(Array(noSuchKey.utf8)) == S3ErrorBody(code: "NoSuchKey", message: "The specified key does not exist."))
        let signature = """
            <?xml version='1.0' encoding='UTF-8'?>
            <Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the \
            signature you provided. Check your key and signing method.</Message><RequestId>txdf73e5f9386546b8a99f4-006b0eaa1a\
            </RequestId><AWSAccessKeyId>mirror:ci</AWSAccessKeyId><StringToSign>AWS4-HMAC-SHA256
            20261201T110602Z
            20261201/us-east-1/s3/aws4_request
            0044fb38ee65f09044b0d2d555044999a2a4775e4de504397bc1f1f1659c88be</StringToSign></Error>
            """
        let body = S3ErrorBody.parse(Array(signature.utf8))
        #expect(body?.code == "SignatureDoesNotMatch")
        #expect(body?.message?.hasPrefix("The request signature we calculated") == true)
    }

    @Test func bodiesThatAreNotS3ErrorsGiveNothing() {
        #expect(S3ErrorBody.parse([]) == nil)
        #expect(S3ErrorBody.parse(Array("<html><body>502 Bad Gateway</body></html>".utf8)) == nil)
        #expect(S3ErrorBody.parse(Array("Service Unavailable".utf8)) == nil)
    }

    @Test func externalEntitiesAreNotLoaded() {
        let xml = #"<?xml version="1.0"?><!DOCTYPE Error [<!ENTITY leak SYSTEM "file:///etc/hostname">]>"#
            + "<Error><Code>&leak;</Code><Message>m</Message></Error>"
        #expect(S3ErrorBody.parse(Array(xml.utf8))?.code == "")
    }

    @Test func quietDeleteResultsListTheFailures() {
        // From AWS's DeleteObjects documentation, with a second error added.
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Deleted><Key>sample1.txt</Key></Deleted>
              <Error><Key>sample2.txt</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>
              <Error><Key>a &amp; b</Key><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>
            </DeleteResult>
            """
        #expect(S3DeleteDocuments.failures(Array(xml.utf8)) == [
            S3DeleteFailure(key: "sample2.txt", code: "AccessDenied", message: "Access Denied"),
            S3DeleteFailure(key: "a & b", code: "InternalError", message: "We encountered an internal error. Please try again."),
        ])
    }

    @Test func aDeleteResultWithoutErrorsHasNoFailures() {
        let captured = #"<?xml version='1.0' encoding='UTF-8'?><DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#
            + "<Deleted><Key>a/1.jpg</Key></Deleted><Deleted><Key>gone</Key></Deleted></DeleteResult>"
        #expect(S3DeleteDocuments.failures(Array(captured.utf8)) == [])
        #expect(S3DeleteDocuments.failures(Array("<Error/>".utf8)) == nil)
    }
}
