import Testing
@testable import PMObjectStore

@Suite struct DeleteDocumentTests {
    @Test func theRequestIsQuietAndEscapesKeys() throws {
        let body = try #require(S3DeleteDocuments.request(keys: ["a/1.jpg", "x<&>y", "tab\tcr\r"]))
        let xml = String(decoding: body, as: UTF8.self)
        #expect(xml.contains("<Quiet>true</Quiet>"))
        #expect(xml.contains("<Object><Key>a/1.jpg</Key></Object><Object><Key>x&lt;&amp;&gt;y</Key></Object>"))
        #expect(xml.contains("<Key>tab&#9;cr&#13;</Key>"))
    }

    @Test func theRequestReadsBackAsTheSameKeys() throws {
        let keys = ["a/1.jpg", "x<&>y \"q\" 'a'", "é/ü", "line\nbreak", "cr\rkept"]
        let body = try #require(S3DeleteDocuments.request(keys: keys))
        let root = try #require(S3XMLElement.parse(body))
        #expect(root.name == "Delete")
        #expect(root.children("Object").compactMap { $0.childText("Key") } == keys)
    }

    @Test func keysXMLCannotCarryAreRefused() {
        #expect(S3DeleteDocuments.request(keys: ["ok", "bell\u{07}"]) == nil)
        #expect(S3DeleteDocuments.request(keys: ["nul\u{00}"]) == nil)
    }

    @Test func keysGoInBatchesOfAtMostAThousand() {
        let keys = (0..<2500).map { "k\($0)" }
        let batches = S3DeleteDocuments.batches(keys)
        #expect(batches.map(\.count) == [1000, 1000, 500])
        #expect(batches.flatMap { $0 } == keys)
        #expect(S3DeleteDocuments.batches([]) == [])
        #expect(S3DeleteDocuments.batches(["a", "b", "c"], size: 2) == [["a", "b"], ["c"]])
    }
}
