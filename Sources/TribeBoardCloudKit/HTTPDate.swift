import Foundation

/// HTTP's Date header (RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`): what the server's
/// clock said when it answered.
enum HTTPDate {
    package static func format(_ date: Date) -> String {
        formatter().string(from: date)
    }

    package static func parse(_ text: String?) -> Date? {
        guard let text, !text.isEmpty else { return nil }
        return formatter().date(from: text)
    }

    /// A new formatter per call: DateFormatter is not Sendable, and doctor parses one header.
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
