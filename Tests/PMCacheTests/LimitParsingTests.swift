import Testing
@testable import PMCache

@Suite struct ByteSizeTests {
    @Test(arguments: [
        ("500MB", 500_000_000), ("500M", 500_000_000), ("500mb", 500_000_000), ("1.5GB", 1_500_000_000),
        ("2GiB", 2_147_483_648), ("750000000", 750_000_000), ("800KB", 800_000), ("123B", 123),
        ("1KiB", 1024), ("1.5MiB", 1_572_864), ("0.1GB", 100_000_000), (" 3 TB ", 3_000_000_000_000),
        ("1.0000000000001TB", 1_000_000_000_000), ("2.5", 2),
    ])
    func sizesPeopleWrite(text: String, bytes: Int) throws {
        #expect(try ByteSize.parse(text) == bytes)
    }

    @Test(arguments: [
        ("500XB", "unknown unit \"xb\""), ("-1MB", "negative"), ("", "empty"), ("   ", "empty"),
        ("MB", "does not start with a number"), ("0", "more than 0"), ("0.0001B", "more than 0"),
        ("99999999999TB", "too large"), ("5 M B", "unknown unit"), ("1.2.3MB", "unknown unit"),
    ])
    func mistakesAreRefusedWithTheReason(text: String, reason: String) {
        #expect {
            try ByteSize.parse(text)
        } throws: { error in
            let description = (error as? ByteSize.ParseError)?.description ?? ""
            return description.contains(reason) && description.contains("\"\(text)\"")
        }
    }
}

@Suite struct AgeLimitTests {
    @Test(arguments: [
        ("7d", 604_800.0), ("12h", 43_200), ("30m", 1_800), ("90s", 90), ("2w", 1_209_600), ("1.5d", 129_600),
        ("12H", 43_200),
    ])
    func durationsPeopleWrite(text: String, seconds: Double) throws {
        #expect(try AgeLimit.parse(text) == seconds)
    }

    @Test(arguments: [
        ("", "empty"), ("-1d", "negative"), ("7", "needs a unit"), ("7y", "unknown unit \"y\""), ("d", "number"),
        ("0h", "longer than 0"),
    ])
    func mistakesAreRefusedWithTheReason(text: String, reason: String) {
        #expect {
            try AgeLimit.parse(text)
        } throws: { error in
            (error as? AgeLimit.ParseError)?.description.contains(reason) == true
        }
    }
}

@Suite struct PixelSizeTests {
    @Test(arguments: [("32x32", 32, 32), ("100X50", 100, 50), (" 1x1 ", 1, 1), ("640x1", 640, 1)])
    func sizesPeopleWrite(text: String, width: Int, height: Int) throws {
        #expect(try PixelSize.parse(text) == PixelSize(width: width, height: height))
        #expect(try PixelSize.parse(text).description == "\(width)x\(height)")
    }

    @Test(arguments: [
        ("0x0", "at least 1"), ("32x0", "at least 1"), ("abc", "a width and a height"), ("10", "a width and a height"),
        ("-5x5", "negative"), ("5x-5", "negative"), ("", "empty"), ("+5x5", "whole number"), ("5.5x5", "whole number"),
        ("5x5x5", "a width and a height"), ("x5", "whole number"), ("99999999999999999999x1", "over"),
    ])
    func mistakesAreRefusedWithTheReason(text: String, reason: String) {
        #expect {
            try PixelSize.parse(text)
        } throws: { error in
            let description = (error as? PixelSize.ParseError)?.description ?? ""
            return description.contains(reason) && description.contains("\"\(text)\"")
        }
    }
}
