import Foundation

/// A moment as the store keeps it: ISO 8601 UTC text with milliseconds (`2026-11-21T22:27:49.123Z`),
/// sortable as text and readable in `sqlite3`. Text that is not such a date does not decode (a
/// thrown error naming the column), rather than becoming a date nobody wrote. The one definition
/// of the store's date text: the store, CloudKit's record mapping and the command line all use it.
package struct Timestamp: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970, what the text keeps: a value equals itself after a round trip.
    package let milliseconds: Int64

    /// The dates a record read from outside may hold: 1970 to 9999-12-31T23:59:59.999Z, in
    /// milliseconds. 1e300 or a negative number is a broken writer, not a date. The one bound:
    /// the Remote module's decoders, sheets' dates and the snapshot parser's TB_SNAPSHOT_MAX_MS
    /// (`SnapshotParserAgreementTests` checks it) use it.
    package static let supportedMilliseconds: ClosedRange<Int64> = 0...253_402_300_799_999

    package init(_ date: Date) {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        // Dates beyond any store's range (year ±292 million) are clamped rather than trapping.
        milliseconds = value.isFinite ? Int64(max(min(value, 9.2e18), -9.2e18)) : 0
    }

    package init(milliseconds: Int64) { self.milliseconds = milliseconds }

    package var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    package init?(text: String) {
        guard let date = (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                ?? (try? Date(text, strategy: Date.ISO8601FormatStyle())) else { return nil }
        self.init(date)
    }

    /// Whole seconds formatted, milliseconds appended from the integer: formatting the Date's
    /// fraction would truncate .123 (stored as .12299999…) to .122.
    package var text: String {
        let (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (whole, millis) = remainder < 0 ? (seconds - 1, remainder + 1000) : (seconds, remainder)
        let base = Date(timeIntervalSince1970: Double(whole)).formatted(Self.secondsStyle)
        let fraction = String(millis + 1000).dropFirst()  // zero-padded to three digits
        return base.hasSuffix("Z") ? base.dropLast() + "." + fraction + "Z" : base
    }

    private static let secondsStyle = Date.ISO8601FormatStyle().year().month().day().dateSeparator(.dash)
        .time(includingFractionalSeconds: false).timeSeparator(.colon).timeZone(separator: .omitted)

    package var description: String { text }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.milliseconds < rhs.milliseconds }

    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Timestamp(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not an ISO 8601 date"))
        }
        self = value
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
