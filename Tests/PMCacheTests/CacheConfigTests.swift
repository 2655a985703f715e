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

@Suite struct CacheConfigSettingsTests {
    @Test func everySettingOfACacheIsRead() throws {
        let config = try CacheConfig.parse(Data(#"""
            {"sizes": ["120x80", "40x40"], "scales": [1, 2], "jobs": 4, "per_host": 2, "rate": 0.5,
             "user_agent": "me/1 (+mailto:me@example.org)", "max_size": "1GB", "max_age": "30d",
             "store": "s3://b/p", "gallery_title": "Photos", "format": "webp", "quality": 60, "fit": "contain",
             "min_bytes": "2kB", "min_pixels": "32x16"}
            """#.utf8))
        #expect(config.format == "webp" && config.quality == 60 && config.fit == "contain")
        #expect(config.sizes == ["120x80", "40x40"])
        #expect(config.scales == [1, 2])
        #expect(config.jobs == 4 && config.perHost == 2 && config.rate == 0.5)
        #expect(config.userAgent == "me/1 (+mailto:me@example.org)")
        #expect(config.maxSize == 1_000_000_000 && config.maxAge == 30 * 86_400)
        #expect(config.store == "s3://b/p" && config.galleryTitle == "Photos")
        #expect(config.minBytes == 2_000 && config.minPixels == PixelSize(width: 32, height: 16))
        #expect(try CacheConfig.parse(Data(#"{"sizes": "60x60", "scales": "1,3", "rate": 2}"#.utf8)).scales == [1, 3])
    }

    @Test(arguments: [
        (#"{"sizes": ["120"]}"#, "\"120\" is not a size"), (#"{"sizes": []}"#, "a list of sizes"),
        (#"{"scales": [0]}"#, "whole numbers from 1"), (#"{"jobs": 0}"#, "from 1 to 256"),
        (#"{"jobs": "4"}"#, "from 1 to 256"), (#"{"rate": -1}"#, "positive number"),
        (#"{"user_agent": "a\nb"}"#, "control characters"), (#"{"max_age": 7}"#, "a duration"),
        (#"{"max_age": "7"}"#, "needs a unit"), (#"{"gallery_title": 3}"#, "text such as"),
        (#"{"format": "gif"}"#, "format must be one of \"png\", \"webp\""), (#"{"quality": 0}"#, "from 1 to 100"),
        (#"{"quality": 101}"#, "from 1 to 100"), (#"{"fit": "fill"}"#, "fit must be one of \"cover\", \"contain\""),
        (#"{"min_pixels": "0x0"}"#, "min_pixels: \"0x0\" is not a size in pixels: each side must be at least 1"),
        (#"{"min_pixels": 32}"#, "min_pixels must be a size in pixels such as \"32x32\""),
        (#"{"min_bytes": "-1"}"#, "min_bytes: \"-1\" is not a size"),
    ])
    func aWrongValueNamesItsKey(json: String, message: String) {
        #expect {
            try CacheConfig.parse(Data(json.utf8))
        } throws: { error in
            (error as? CacheConfig.LoadError)?.description.contains(message) == true
        }
    }

    @Test func theUsersFileHoldsNoStore() {
        #expect {
            try CacheConfig.parse(Data(#"{"store": "s3://b"}"#.utf8), keys: CacheConfig.userKeys)
        } throws: { error in
            let text = (error as? CacheConfig.LoadError)?.description ?? ""
            return text.contains("unknown setting \"store\"") && text.contains("belongs to one cache")
        }
    }
}
