import Foundation
import Testing
@testable import PMFeeds

@Suite struct JSONPRepairTests {
    /// Flickr's `\'` used to be rewritten in the bytes before decoding; `JSONReader` now reads it
    /// as an escape itself. These are the cases the byte repair was tested with, as decoded text.
    private func decoded(_ json: String) throws -> String? {
        try JSONValue.decode(Array(json.utf8), as: "test")["d"]?.string
    }

    @Test func apostropheEscapeBecomesPlainApostrophe() throws {
        #expect(try decoded(#"{"d":"I\'ll go"}"#) == "I'll go")
    }

    @Test func escapedBackslashBeforeApostropheIsKept() throws {
        // `\\'` is an escaped backslash followed by a quote character: valid JSON, left alone.
        #expect(try decoded(#"{"d":"C:\\'x"}"#) == #"C:\'x"#)
        // `\\\'` is an escaped backslash, then the invalid escape.
        #expect(try decoded(#"{"d":"a\\\'b"}"#) == #"a\'b"#)
        // `\"` does not end the string, so the following `\'` is still inside it.
        #expect(try decoded(#"{"d":"say \"hi\" I\'m"}"#) == #"say "hi" I'm"#)
    }

    @Test func onlyInsideStrings() throws {
        #expect(try decoded(#"{"d":"\'"}"#) == "'")
        // Outside a string `\'` is no token, so the document is not JSON.
        #expect(throws: FeedError.self) { try JSONValue.decode(Array(#"[\'x']"#.utf8), as: "test") }
        #expect(throws: FeedError.self) { try JSONValue.decode(Array(#"{"d":"x"}\'"#.utf8), as: "test") }
    }

    @Test func repairedTextDecodesToTheIntendedCharacters() throws {
        let value = try JSONValue.decode(Array(#"{"a":"I\'ll","b":"x\\'y"}"#.utf8), as: "test")
        #expect(value["a"]?.string == "I'll")
        #expect(value["b"]?.string == #"x\'y"#)
    }

    @Test func unwrapsBetweenFirstAndLastParenthesis() throws {
        let payload = try #require(JSONPUnwrapper.unwrap(Array(#"jsonFlickrFeed({"t":"(a)","u":")"})"#.utf8)))
        #expect(String(decoding: payload, as: UTF8.self) == #"{"t":"(a)","u":")"}"#)
    }

    @Test func toleratesWhitespaceSemicolonBOMAndCommentPrefix() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("/**/ jQuery.cb_1 (\n{\"a\":1}\n);\n".utf8)
        let payload = try #require(JSONPUnwrapper.unwrap(bytes))
        #expect(String(decoding: payload, as: UTF8.self) == "\n{\"a\":1}\n")
    }

    @Test(arguments: [#"{"a":"cb(x)"}"#, "cb({}) trailing", "(1)", "1cb({})", "cb", "<p>(x)</p>"])
    func rejectsWhatIsNotJSONP(text: String) {
        #expect(JSONPUnwrapper.unwrap(Array(text.utf8)) == nil)
    }
}
