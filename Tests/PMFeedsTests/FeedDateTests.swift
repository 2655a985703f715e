import Foundation
import Testing
@testable import PMFeeds

@Suite struct FeedDateTests {
    /// Expected instants computed with Python's `datetime.fromisoformat` / `email.utils.parsedate_to_datetime`.
    @Test(arguments: [
        ("2017-01-21T16:12:09Z", 1_485_015_129.0),
        ("2017-01-21T11:32:12-08:00", 1_485_027_132),
        ("2014-04-29T14:18:17-0400", 1_398_795_497),        // Marvel: offset without colon
        ("2003-12-13T18:30:02.25Z", 1_071_340_202.25),
        ("2003-12-13T18:30:02.250+01:00", 1_071_336_602.25),
        ("2000-01-01T00:00:00+05:30", 946_665_000),
        ("2011-03-07 13:19:22", 1_299_503_962),              // no zone: UTC by default
        ("2016-02-29T00:00:00Z", 1_456_704_000),
        ("1901-12-13T20:45:52Z", -2_147_483_648),
        ("2038-01-19T03:14:08Z", 2_147_483_648),
        ("Sat, 07 Sep 2002 00:00:01 GMT", 1_031_356_801),
        ("Sat, 07 Sep 2002 00:00:01 +0000", 1_031_356_801),
        ("Mon, 29 Nov 2010 05:04:14 -0800", 1_291_035_854),
        ("07 Sep 2002 00:00:01 EST", 1_031_374_801),         // no weekday, named zone
        ("Tue, 10 Jun 2003 04:00:00 PDT", 1_055_242_800),
        ("Sat, 07 Sep 02 00:00 GMT", 1_031_356_800),         // 2-digit year, no seconds
        ("  Sat, 7 September 2002 00:00:01 UT ", 1_031_356_801),
    ])
    func parsesExactInstant(text: String, seconds: Double) {
        #expect(FeedDate.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "",
        "yesterday",
        "1969-12-31T19:00:00-0500",     // Marvel's "never modified" sentinel is the Unix epoch
        "1970-01-01T00:00:00Z",
        "2017-02-30T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2017-01-21T25:00:00Z",
        "2017-01-21T16:12:09+25:00",
        "2017-01-21T16:12:09Z trailing",
        "Sat, 07 Foo 2002 00:00:01 GMT",
        "Sat, 07 Sep 2002 00:00:01 XYZ",
    ])
    func rejectsOrTreatsAsUnknown(text: String) {
        #expect(FeedDate.parse(text) == nil)
    }

    @Test func zonelessTextUsesTheAssumedOffset() {
        // Flickr REST `datetaken`, labelled -08:00 like the public feed's `date_taken`.
        #expect(FeedDate.parse("2008-05-12 14:31:05", assumingOffset: -8 * 3_600) == instant(1_210_631_465))
        #expect(FeedDate.parse("2008-05-12T14:31:05Z", assumingOffset: -8 * 3_600) == instant(1_210_602_665))
    }
}
