import Foundation
import Testing
import TribeBoardDomain

/// The store's date text is written from the integer for 1970 to 9999 (the bulk path's speed):
/// it must be the text Foundation's ISO 8601 formatter gives for the same whole second, with the
/// milliseconds exact, and read back as the same moment.
struct TimestampTextTests {
    static func foundationText(_ milliseconds: Int64) -> String {
        let (seconds, millis) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
        return whole.dropLast() + "." + String(millis + 1000).dropFirst() + "Z"
    }

    @Test func civilTextIsFoundationsTextToTheMillisecond() {
        var generator = SystemRandomNumberGenerator()
        let edges: [Int64] = [0, 999, 951_782_400_000, 951_868_799_999, 4_107_542_400_000, 253_402_300_799_999,
                              1_764_000_000_123, 68_256_000_000]
        let random = (0..<2_000).map { _ in Int64.random(in: Timestamp.supportedMilliseconds, using: &generator) }
        for milliseconds in edges + random {
            let text = Timestamp(milliseconds: milliseconds).text
            #expect(text == Self.foundationText(milliseconds), "\(milliseconds)")
            #expect(Timestamp(text: text)?.milliseconds == milliseconds, "\(text)")
        }
    }
}
