import Foundation
import Testing
@testable import TribeBoardDomain

/// Dates as the store holds them: text with milliseconds, as every store since the first has.
struct TimestampTests {
    @Test func timestampsKeepMillisecondsAndRefuseProse() {
        #expect(Timestamp(text: "2026-11-23T07:30:00.250Z")?.text == "2026-11-23T07:30:00.250Z")
        #expect(Timestamp(text: "2026-11-23T07:30:00Z")?.text == "2026-11-23T07:30:00.000Z")
        #expect(Timestamp(text: "yesterday") == nil)
        #expect(Timestamp(Date(timeIntervalSince1970: 1.2345)) == Timestamp(Date(timeIntervalSince1970: 1.2346)))
        // .123 is .12299999… as a Date: formatting its fraction would write .122.
        #expect(Timestamp(text: "2026-11-23T07:30:12.123Z")?.text == "2026-11-23T07:30:12.123Z")
        #expect(Timestamp(text: "1969-12-31T23:59:59.999Z")?.text == "1969-12-31T23:59:59.999Z")
    }

    /// Resync's backoff: a wait of seconds (fractions from a server's `retryAfter`) lands on the
    /// millisecond, either way; the present is the clock's, to the millisecond.
    @Test func secondsLaterAndNow() {
        let start = Timestamp(milliseconds: 1_800_000_000_000)
        #expect(start.adding(seconds: 60).milliseconds == 1_800_000_060_000)
        #expect(start.adding(seconds: 0.001).milliseconds == 1_800_000_000_001)
        #expect(start.adding(seconds: -1.5).milliseconds == 1_799_999_998_500)
        #expect(abs(Timestamp.now.date.timeIntervalSinceNow) < 5)
    }
}
