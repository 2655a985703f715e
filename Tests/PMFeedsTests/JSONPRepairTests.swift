import Foundation
import Testing
@testable import PMFeeds

@Suite struct JSONPRepairTests {
    private func repaired(_ text: String) -> String {
        String(decoding: JSONPUnwrapper.repairSingleQuoteEscapes(Array(text.utf8)), as: UTF8.self)
    }

    @Test func apostropheEscapeBecomesPlainApostrophe() {
        #expect(repaired(#"{"d":"I\'ll go"}"#) == #"{"d":"I'll go"}"#)
    }

    @Test func escapedBackslashBeforeApostropheIsKept() {
        // `\\'` is an escaped backslash followed by a quote character: valid JSON, left alone.
        #expect(repaired(#"{"d":"C:\\'x"}"#) == #"{"d":"C:\\'x"}"#)
        // `\\\'` is an escaped backslash, then the invalid escape.
        #expect(repaired(#"{"d":"a\\\'b"}"#) == #"{"d":"a\\'b"}"#)
        // `\"` does not end the string, so the following `\'` is still inside it.
        #expect(repaired(#"{"d":"say \"hi\" I\'m"}"#) == #"{"d":"say \"hi\" I'm"}"#)
    }

    @Test func onlyInsideStrings() {
        #expect(repaired(#"\' "\'" \'"#) == #"\' "'" \'"#)
    }

    @Test func repairedTextDecodesToTheIntendedCharacters() throws {
        let bytes = JSONPUnwrapper.repairSingleQuoteEscapes(Array(#"{"a":"I\'ll","b":"x\\'y"}"#.utf8))
        let value = try JSONValue.decode(bytes, as: "test")
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
