import Testing
@testable import PMFeeds

/// `JSONValue.parse(_:skipping:)` must accept exactly what the full read accepts, failing with
/// the same message, and give the full read's value without the skipped members.
@Suite struct JSONSkippingTests {
    private static let skipped: Set<String> = ["title", "b", "tags"]

    @Test func leavesOutTheNamedMembersAtEveryDepth() {
        let text = #"{"title":"x","a":[{"title":{"y":[1,"\u00e9"]},"keep":2,"b":null}],"b":[[]],"c":{"tags":"t","d":"e"}}"#
        #expect(skippingDump(text) == #"{a:[{keep:int(2)}],c:{d:"e"}}"#)
        // Arrays' elements are values, not members: a string equal to a skipped key stays.
        #expect(skippingDump(#"["title",{"title":1}]"#) == #"["title",{}]"#)
    }

    @Test(arguments: [
        #"{"title":"a\qb"}"#, #"{"title":"\ud83d"}"#, "{\"title\":\"a\u{01}\"}", #"{"title":[1,]2]}"#,
        #"{"title":{"k" 1}}"#, #"{"title":{1:2}}"#, #"{"title":01}"#, #"{"title":tru}"#, #"{"title":"abc"#,
        #"{"title":[1 2]}"#, #"{"title":{"a":1,,}}"#, #"{"title":"\u12"}"#, #"{"title":}"#,
    ])
    func rejectsWhatTheFullReadRejectsWithTheSameMessage(text: String) {
        let full = decodeDump(text)
        #expect(full.hasPrefix("error"))
        #expect(skippingDump(text) == full)
    }

    @Test func rejectsInvalidUTF8AndTooDeepNestingInASkippedValue() {
        let invalid: [UInt8] = Array(#"{"title":""#.utf8) + [0xC0, 0x80] + Array(#""}"#.utf8)
        #expect(skippingDump(invalid) == decodeDump(invalid))
        #expect(skippingDump(invalid).hasPrefix("error: doc is not valid JSON: invalid UTF-8"))
        let deep = #"{"title":"# + String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth) + "}"
        #expect(skippingDump(deep) == decodeDump(deep))
        #expect(skippingDump(deep).hasPrefix("error"))
    }

    /// Seeded random edits of documents whose skipped members hold every kind of value.
    @Test func agreesWithTheFullReadOnMutatedDocuments() {
        let seeds = [#"{"title":[1,-2,3.5,true,false,null,"x\"y\\z\u00e9\ud83d\ude00"],"a":{"b":{"c":"I\'m"},"d":1}}"#,
                     #"[{"title":"t","link":"https://www.flickr.com/photos/o/1/","tags":{"m":["u",{}]},"b":"a b"}]"#]
        var accepted = 0
        for bytes in mutatedDocuments(of: seeds, count: 2_000, seed: 0x5C1B) {
            let full = fullDumpWithoutSkipped(bytes)
            #expect(skippingDump(bytes) == full, "\(FeedDetector.escaped(bytes, limit: 200))")
            if !full.hasPrefix("error") { accepted += 1 }
        }
        // Both outcomes were exercised.
        #expect(accepted > 100 && accepted < 1_900)
    }

    private func skippingDump(_ text: String) -> String { skippingDump(Array(text.utf8)) }

    private func skippingDump(_ bytes: [UInt8]) -> String {
        do {
            return dump(try JSONValue.decode(bytes, skipping: Self.skipped, as: "doc"))
        } catch {
            return "error: \(error.message)"
        }
    }

    /// The full read's dump with the skipped members taken out afterwards.
    private func fullDumpWithoutSkipped(_ bytes: [UInt8]) -> String {
        do {
            return dump(without(try JSONValue.decode(bytes, as: "doc")))
        } catch {
            return "error: \(error.message)"
        }
    }

    private func without(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements): .array(elements.map(without))
        case .object(let object):
            .object(JSONObject(members: object.members.filter { !Self.skipped.contains($0.key) }
                .map { JSONMember(key: $0.key, value: without($0.value)) }))
        default: value
        }
    }
}
