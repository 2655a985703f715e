import Foundation
import Testing
@testable import PMCache

@Suite struct CacheConfigTests {
    func parse(_ json: String) throws -> CacheConfig {
        try CacheConfig.parse(Data(json.utf8))
    }

    @Test func maxSizeIsASizeStringOrBytes() throws {
        #expect(try parse(#"{"max_size": "500MB"}"#).maxSize == 500_000_000)
        #expect(try parse(#"{"max_size": 1234}"#).maxSize == 1234)
        #expect(try parse(#"{"max_size": null}"#).maxSize == nil)
        #expect(try parse("{}") == CacheConfig())
    }

    @Test(arguments: [
        (#"{"max-size": "1GB"}"#, "unknown setting \"max-size\""), (#"{"max_size": "500XB"}"#, "unknown unit"),
        (#"{"max_size": true}"#, "whole number of bytes"), (#"{"max_size": -5}"#, "whole number of bytes"),
        ("[1]", "not a JSON object"), ("", "not a JSON object"),
    ])
    func mistakesNameTheProblem(json: String, message: String) {
        #expect {
            try parse(json)
        } throws: { error in
            (error as? CacheConfig.LoadError)?.description.contains(message) == true
        }
    }

    @Test func aCacheWithoutTheFileHasNoSettings() throws {
        let layout = CacheLayout(root: FileManager.default.temporaryDirectory.appendingPathComponent("pm-\(UUID())").path)
        #expect(try CacheConfig.load(layout: layout) == CacheConfig())
    }
}
