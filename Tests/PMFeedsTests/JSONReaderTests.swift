import Foundation
import Testing
@testable import PMFeeds

@Suite struct JSONReaderTests {
    @Test(arguments: [
        ("0", "int(0)"), ("-0", "int(0)"), ("42", "int(42)"), ("-17", "int(-17)"),
        ("9223372036854775807", "int(9223372036854775807)"), ("-9223372036854775808", "int(-9223372036854775808)"),
        // Beyond Int64: a Double, as JSONDecoder gave.
        ("9223372036854775808", "double(9.223372036854776e+18)"), ("-9223372036854775809", "double(-9.223372036854776e+18)"),
        ("123456789012345678901234567890", "double(1.2345678901234568e+29)"),
        ("1.5", "double(1.5)"), ("-0.25", "double(-0.25)"), ("1e-2", "double(0.01)"), ("2.5E+3", "int(2500)"),
        // Whole values written with a fraction or exponent are Ints, as they were.
        ("1.0", "int(1)"), ("-0.0", "int(0)"), ("1e2", "int(100)"), ("10e-1", "int(1)"), ("1E0001", "int(10)"),
        ("1e15", "int(1000000000000000)"), ("1e19", "double(1e+19)"), ("1e-400", "int(0)"),
        // From 2^53 up they stay Doubles (JSONDecoder re-read them as Decimals and truncated).
        ("9007199254740993.0", "double(9007199254740992.0)"), ("1e16", "double(1e+16)"),
        ("[1, 2.5, -3e0]", "[int(1),double(2.5),int(-3)]"),
    ])
    func numbers(text: String, expected: String) {
        #expect(decodeDump(text) == expected)
    }

    @Test(arguments: [
        ("01", "number with a leading zero at line 1, column 1 (byte 0)"),
        ("-01", "number with a leading zero at line 1, column 1 (byte 0)"),
        ("-", "expected a digit after '-', found end of input at line 1, column 2 (byte 1)"),
        ("[-a]", "expected a digit after '-', found 'a' at line 1, column 3 (byte 2)"),
        ("1.", "expected a digit after the decimal point, found end of input at line 1, column 3 (byte 2)"),
        ("1.e5", "expected a digit after the decimal point, found 'e' at line 1, column 3 (byte 2)"),
        ("1e", "expected a digit in the exponent, found end of input at line 1, column 3 (byte 2)"),
        ("1e+", "expected a digit in the exponent, found end of input at line 1, column 4 (byte 3)"),
        (".5", "unexpected '.' at line 1, column 1 (byte 0)"),
        ("+1", "unexpected '+' at line 1, column 1 (byte 0)"),
        ("0x10", "unexpected 'x' after the top-level value at line 1, column 2 (byte 1)"),
        ("[NaN]", "unexpected 'N' at line 1, column 2 (byte 1)"),
        ("1e400", "number 1e400 is out of range at line 1, column 1 (byte 0)"),
        ("[-1e400]", "number -1e400 is out of range at line 1, column 2 (byte 1)"),
    ])
    func invalidNumbers(text: String, problem: String) {
        #expect(decodeDump(text) == "error: doc is not valid JSON: \(problem)")
    }

    @Test func stringsAndEscapes() {
        #expect(decodeDump(#"["a\/b\b\f\n\r\t\"\\", "\u00e9\u00E9", "\u0000", "caf\#u{E9} 📷"]"#)
                == #"["a/b\u{8}\u{c}\u{a}\u{d}\u{9}"\","\u{e9}\u{e9}","\u{0}","caf\u{e9} \u{1f4f7}"]"#)
        #expect(decodeDump("\"\u{7F}\"") == "\"\u{7F}\"")
    }

    @Test func surrogatePairs() {
        #expect(decodeDump(#""\ud83d\ude00\uD83D\uDE00""#) == #""\u{1f600}\u{1f600}""#)
        #expect(decodeDump(#""\uD800\uDC00\uDBFF\uDFFF""#) == #""\u{10000}\u{10ffff}""#)
        #expect(decodeDump(#"["x", "\ud83d"]"#)
                == #"error: doc is not valid JSON: unpaired UTF-16 high surrogate \uD83D in a string (no \u low surrogate follows) at line 1, column 8 (byte 7)"#)
        #expect(decodeDump(#""\ud83dx""#).hasPrefix(#"error: doc is not valid JSON: unpaired UTF-16 high surrogate \uD83D"#))
        #expect(decodeDump(#""\ud83d\\""#).hasPrefix(#"error: doc is not valid JSON: unpaired UTF-16 high surrogate \uD83D"#))
        #expect(decodeDump(#""\ud83d\u0041""#)
                == #"error: doc is not valid JSON: UTF-16 high surrogate \uD83D followed by \u0041, not by a low surrogate at line 1, column 2 (byte 1)"#)
        #expect(decodeDump(#""\ude00""#)
                == #"error: doc is not valid JSON: unpaired UTF-16 low surrogate \uDE00 in a string at line 1, column 2 (byte 1)"#)
        #expect(decodeDump(#""\ud83d\ud83d""#).contains("not by a low surrogate"))
    }

    @Test(arguments: [
        (#""\x""#, #"invalid escape '\x' in a string at line 1, column 2 (byte 1)"#),
        (#""\u12""#, #"invalid \u escape in a string (expected 4 hex digits) at line 1, column 2 (byte 1)"#),
        (#""\u00g0""#, #"invalid \u escape in a string (expected 4 hex digits) at line 1, column 2 (byte 1)"#),
        ("\"a\tb\"", "unescaped control character 0x09 in a string at line 1, column 3 (byte 2)"),
        ("\"a\nb\"", "unescaped control character 0x0A in a string at line 1, column 3 (byte 2)"),
        ("[\"abc", "unterminated string at line 1, column 2 (byte 1)"),
        ("[\"abc\\", "unterminated string at line 1, column 2 (byte 1)"),
        ("\"\\u00", #"invalid \u escape in a string (expected 4 hex digits) at line 1, column 2 (byte 1)"#),
    ])
    func invalidStrings(text: String, problem: String) {
        #expect(decodeDump(text) == "error: doc is not valid JSON: \(problem)")
    }

    @Test func invalidUTF8InsideStrings() {
        func problem(_ bytes: [UInt8]) -> String { decodeDump([0x22, 0x61] + bytes + [0x22]) }
        let prefix = "error: doc is not valid JSON: invalid UTF-8 in a string"
        #expect(problem([0xFF]) == "\(prefix) (byte 0xFF) at line 1, column 3 (byte 2)")
        #expect(problem([0xC0, 0x80]) == "\(prefix) (byte 0xC0) at line 1, column 3 (byte 2)")  // overlong NUL
        #expect(problem([0xE0, 0x80, 0x80]) == "\(prefix) (byte 0xE0) at line 1, column 3 (byte 2)")  // overlong
        #expect(problem([0xED, 0xA0, 0x80]) == "\(prefix) (byte 0xED) at line 1, column 3 (byte 2)")  // encoded surrogate
        #expect(problem([0xF4, 0x90, 0x80, 0x80]) == "\(prefix) (byte 0xF4) at line 1, column 3 (byte 2)")  // past U+10FFFF
        #expect(problem([0xE2, 0x82]) == "\(prefix) (byte 0xE2) at line 1, column 3 (byte 2)")  // cut short by the quote
        #expect(problem([0x80]) == "\(prefix) (byte 0x80) at line 1, column 3 (byte 2)")  // lone continuation
        #expect(problem([0xC3, 0xA9, 0xFF]) == "\(prefix) (byte 0xFF) at line 1, column 4 (byte 4)")  // columns count characters
        #expect(decodeDump([0x22, 0xF0, 0x9F]) == "\(prefix) (byte 0xF0) at line 1, column 2 (byte 1)")  // cut short by the end
        // The longest valid forms of each length, and escapes next to raw UTF-8.
        #expect(problem([0xDF, 0xBF, 0xEF, 0xBF, 0xBF, 0xF4, 0x8F, 0xBF, 0xBF]) == #""a\u{7ff}\u{ffff}\u{10ffff}""#)
        #expect(decodeDump(Array(#""é\n😀\u00e9""#.utf8)) == #""\u{e9}\u{a}\u{1f600}\u{e9}""#)
        // Outside strings any non-ASCII byte is simply unexpected.
        #expect(decodeDump([0x5B, 0xFF, 0x5D]) == "error: doc is not valid JSON: unexpected byte 0xFF at line 1, column 2 (byte 1)")
    }

    @Test func plainRunsOfEveryLengthAroundEachKindOfStop() {
        // The string scanner skips eight bytes at a time; a stop at any position must be seen.
        for length in 0..<20 {
            let run = String(repeating: "x", count: length)
            #expect(decodeDump("\"\(run)\"") == "\"\(run)\"")
            #expect(decodeDump("\"\(run)\\n\(run)\"") == "\"\(run)\\u{a}\(run)\"")
            #expect(decodeDump("\"\(run)é\(run)\"") == "\"\(run)\\u{e9}\(run)\"")
            #expect(decodeDump("\"\(run)\u{1}\"").hasPrefix("error: doc is not valid JSON: unescaped control character 0x01"))
            #expect(decodeDump(Array("\"\(run)".utf8) + [0xFF] + Array("\"".utf8)).contains("(byte 0xFF) at line 1, column \(length + 2)"))
            #expect(decodeDump("[\"\(run)") == "error: doc is not valid JSON: unterminated string at line 1, column 2 (byte 1)")
        }
    }

    @Test func repeatedKeysKeepTheFirstValueAsJSONDecoderDid() throws {
        #expect(decodeDump(#"{"a":1,"b":0,"a":2}"#) == "{a:int(1),b:int(0)}")
        #expect(decodeDump(#"{"a":{"b":1},"a":[2]}"#) == "{a:{b:int(1)}}")
        let object = try #require(try JSONValue.decode(Array(#"{"z":1,"a":2,"z":3}"#.utf8), as: "doc").object)
        #expect(object.keys == ["z", "a"])
        #expect(object["z"].map(dump) == "int(1)")
    }

    @Test func whitespaceByteOrderMarkAndTrailingCommas() {
        #expect(decodeDump([0xEF, 0xBB, 0xBF] + Array(" \t\r\n{ \"a\" :\t[ 1 , 2 ] }\r\n\t ".utf8)) == "{a:[int(1),int(2)]}")
        #expect(decodeDump(" [ ] ") == "[]")
        #expect(decodeDump("{}") == "{}")
        #expect(decodeDump("[\u{0C}1]") == "error: doc is not valid JSON: unexpected byte 0x0C at line 1, column 2 (byte 1)")
        #expect(decodeDump("[1]\u{0}") == "error: doc is not valid JSON: unexpected byte 0x00 after the top-level value at line 1, column 4 (byte 3)")
        #expect(decodeDump([0xEF, 0xBB, 0xBF]) == "error: doc is not valid JSON: unexpected end of input at line 1, column 2 (byte 3)")
        #expect(decodeDump("") == "error: doc is not valid JSON: unexpected end of input at line 1, column 1 (byte 0)")
        #expect(decodeDump("  ") == "error: doc is not valid JSON: unexpected end of input at line 1, column 3 (byte 2)")
        // One trailing comma is accepted, as JSONDecoder did; an empty element is not.
        #expect(decodeDump("[1,]") == "[int(1)]")
        #expect(decodeDump(#"{"a":[1 , ] , }"#) == "{a:[int(1)]}")
        #expect(decodeDump("[,]") == "error: doc is not valid JSON: unexpected ',' at line 1, column 2 (byte 1)")
        #expect(decodeDump("[1,,2]") == "error: doc is not valid JSON: unexpected ',' at line 1, column 4 (byte 3)")
        #expect(decodeDump("{,}") == "error: doc is not valid JSON: expected a string key in an object, found ',' at line 1, column 2 (byte 1)")
    }

    @Test(arguments: [
        ("[1 2]", "expected ',' or ']' after an array element, found '2' at line 1, column 4 (byte 3)"),
        (#"{"a" 1}"#, "expected ':' after an object key, found '1' at line 1, column 6 (byte 5)"),
        (#"{"a":1 "b":2}"#, #"expected ',' or '}' after an object member, found '"' at line 1, column 8 (byte 7)"#),
        ("{1:2}", "expected a string key in an object, found '1' at line 1, column 2 (byte 1)"),
        ("['a']", "unexpected ''' at line 1, column 2 (byte 1)"),
        ("[tru]", "unexpected ']' in what should be 'true' at line 1, column 5 (byte 4)"),
        ("tRue", "unexpected 'R' in what should be 'true' at line 1, column 2 (byte 1)"),
        ("nul", "unexpected end of input in what should be 'null' at line 1, column 4 (byte 3)"),
        ("[]]", "unexpected ']' after the top-level value at line 1, column 3 (byte 2)"),
        (#"{"a":1}{"b":2}"#, "unexpected '{' after the top-level value at line 1, column 8 (byte 7)"),
        ("[1]//x", "unexpected '/' after the top-level value at line 1, column 4 (byte 3)"),
        ("[1,\n  2,\n  }", "unexpected '}' at line 3, column 3 (byte 11)"),
    ])
    func structuralErrorsSayWhatAndWhere(text: String, problem: String) {
        #expect(decodeDump(text) == "error: doc is not valid JSON: \(problem)")
    }

    @Test func literals() {
        #expect(decodeDump("[true,false,null]") == "[true,false,null]")
    }

    @Test func nestingIsLimitedTo512LikeJSONDecoder() {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(decodeDump(deepest).hasPrefix("[[[["))
        let objects = String(repeating: #"{"a":"#, count: 512) + "1" + String(repeating: "}", count: 512)
        #expect(decodeDump(objects).hasPrefix("{a:{a:"))
        #expect(decodeDump("[" + deepest + "]")
                == "error: doc is not valid JSON: more than 512 nested arrays and objects at line 1, column 513 (byte 512)")
        // Hostile depth is an error, not a stack overflow.
        #expect(decodeDump(String(repeating: "[", count: 200_000)).contains("more than 512 nested"))
        #expect(decodeDump(String(repeating: #"{"a":["#, count: 100_000)).contains("more than 512 nested"))
    }

    @Test func everyTruncationOfAFeedFailsWithAReason() throws {
        let bytes = Array(JSONFeedTests.feed.utf8)
        let full = decodeDump(bytes)
        #expect(!full.hasPrefix("error"))
        for cut in 0..<bytes.count {
            let message = decodeDump(Array(bytes[..<cut]))
            #expect(message.hasPrefix("error: doc is not valid JSON: "), "cut at \(cut)")
        }
    }

    @Test func utf16AndUTF32TextIsReadAsJSONDecoderReadIt() throws {
        let utf16 = JSONFeedTests.feed.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        let feed = try FeedParser.parse(utf16, url: URL(string: "https://cdn.example.org/feed.json")!)
        #expect(feed.items.map(\.id) == ["2024-05-01-harbour", "42", "no-image", "bad-tags"])
        #expect(decodeDump([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x31]) == "int(1)")
        #expect(decodeDump([0x5B, 0x00, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00, 0x5D, 0x00]) == "error: doc looks like UTF-16LE text but is not valid UTF-16LE")
        #expect(decodeDump([0x5B, 0x00, 0x7D, 0x00])
                == "error: doc (UTF-16LE, read as UTF-8) is not valid JSON: unexpected '}' at line 1, column 2 (byte 1)")
    }

    @Test func errorPositionsCountFromTheStartOfTheResponse() {
        let body = "jsonFlickrFeed({\n\t\"items\": [\n\t\t{\"a\": tru}\n\t]\n})"
        #expect(throws: FeedError("the JSONP body is not valid JSON: unexpected '}' in what should be 'true' at line 3, column 12 (byte 40)")) {
            try FeedParser.parse(Array(body.utf8), url: URL(string: "https://example.org/f")!)
        }
        #expect(throws: FeedError("the JSON body is not valid JSON: unexpected '}' at line 1, column 14 (byte 13)")) {
            try FeedParser.parse(Array(#" {"items":[1,}"#.utf8), url: URL(string: "https://example.org/f")!)
        }
    }
}
