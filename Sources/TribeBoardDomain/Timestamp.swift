import Foundation

/// A moment as the store keeps it: ISO 8601 UTC text with milliseconds
/// (`2026-11-21T22:27:49.123Z`), sortable as text and readable in `sqlite3`. Text that is not such
/// a date does not decode (a thrown error naming the column), rather than becoming a date nobody
/// wrote. The one definition of the store's date text: the store, CloudKit's record mapping and the
/// command line all use it.
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

    /// The present, to the millisecond the store keeps.
    package static var now: Timestamp { Timestamp(Date()) }

    /// `seconds` later (earlier when negative), rounded to the millisecond like any date.
    package func adding(seconds: Double) -> Timestamp { Timestamp(date.addingTimeInterval(seconds)) }

    package init?(text: String) {
        guard
            let date =
                (try? Date(
                    text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
        else { return nil }
        self.init(date)
    }

    /// Whole seconds formatted, milliseconds appended from the integer: formatting the Date's
    /// fraction would truncate .123 (stored as .12299999…) to .122. Dates of the supported range
    /// are written from the integer directly: every stored row carries one or more, and
    /// Foundation's formatter cost provision's bulk insert a fifth of its time.
    package var text: String {
        if Self.supportedMilliseconds.contains(milliseconds) { return Self.civilText(milliseconds) }
        let (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (whole, millis) = remainder < 0 ? (seconds - 1, remainder + 1000) : (seconds, remainder)
        let base = Date(timeIntervalSince1970: Double(whole)).formatted(Self.secondsStyle)
        let fraction = String(millis + 1000).dropFirst()  // zero-padded to three digits
        return base.hasSuffix("Z") ? base.dropLast() + "." + fraction + "Z" : base
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for 1970 to 9999 (days to a civil date: H. Hinnant's
    /// `civil_from_days`), the same text as the formatter (`TimestampTextTests`).
    private static func civilText(_ milliseconds: Int64) -> String {
        let (seconds, millis) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int, then separator: UInt8?) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
            if let separator { bytes.append(separator) }
        }
        digits(year, 4, then: UInt8(ascii: "-"))
        digits(month, 2, then: UInt8(ascii: "-"))
        digits(day, 2, then: UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2, then: UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2, then: UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2, then: UInt8(ascii: "."))
        digits(millis, 3, then: UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let secondsStyle = Date.ISO8601FormatStyle().year().month().day().dateSeparator(
        .dash
    )
    .time(includingFractionalSeconds: false).timeSeparator(.colon).timeZone(separator: .omitted)

    package var description: String { text }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.milliseconds < rhs.milliseconds }

    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Timestamp(text: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "\"\(text)\" is not an ISO 8601 date"))
        }
        self = value
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
