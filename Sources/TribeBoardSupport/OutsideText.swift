/// Text from outside the toolkit (a CSV field, a CloudKit record's field, a server's reason) put
/// into a line of a report or a message. It must stay on its line and stay short: a line feed in a
/// family name could otherwise print a forged `0 errors, 0 warnings`, and a 900,000-character
/// field would be echoed whole on every run. The one function every message and report uses for
/// such values; JSON needs nothing (its encoder escapes controls, and keeps the whole value).
package enum OutsideText {
    /// The most characters of one outside value a line shows.
    package static let limit = 200

    /// `text` on one line: every control character (line feed, carriage return and tab included),
    /// the line and paragraph separators U+2028 and U+2029, and the bidirectional embedding,
    /// override and isolate controls become visible `\u{…}` escapes; past `limit` characters
    /// the rest is counted, not shown. Joiners and directional marks stay: Arabic, Devanagari or
    /// Thai names need them.
    package static func inline(_ text: some StringProtocol, limit: Int = limit) -> String {
        var result = String.UnicodeScalarView()
        var shown = 0
        var hidden = 0
        for character in text {
            guard shown < limit else {
                hidden += 1
                continue
            }
            shown += 1
            for scalar in character.unicodeScalars {
                if isUnsafe(scalar) {
                    result.append(
                        contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
                } else {
                    result.append(scalar)
                }
            }
        }
        var line = String(result)
        if hidden > 0 { line += "… (\(hidden) more characters)" }
        return line
    }

    /// `text` as it is, cut after `limit` characters with the rest counted: what a file or the
    /// store keeps of an outside value (a server's reason, another writer's record name).
    package static func bounded(_ text: String, limit: Int = 1000) -> String {
        guard text.utf8.count > limit,
            let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex),
            end < text.endIndex
        else { return text }
        return String(text[..<end])
            + "… (\(text.distance(from: end, to: text.endIndex)) more characters)"
    }

    /// Whether `scalar` would break a line, drive a terminal or reorder what is shown.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
