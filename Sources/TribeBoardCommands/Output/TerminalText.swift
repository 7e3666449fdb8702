import TribeBoardSupport

/// Text that reaches a terminal from outside (family names from a CSV, record names and fields
/// from CloudKit) must not drive it: an ESC sequence can rewrite the screen, set the window title
/// or hide lines, and bidirectional overrides can reorder what is shown. Every text report goes
/// through `sanitized` on its way to stdout; JSON needs nothing (its encoder escapes controls).
enum TerminalText {
    /// "1 card", "2 cards": counts in sentences read right at one.
    static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }

    /// Control characters (but line feed and tab, which the reports' own layout uses) and the
    /// bidi embedding, override and isolate controls become visible `\u{…}` escapes. Joiners and
    /// directional marks stay: Arabic, Devanagari or Thai names need them.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// OutsideText's set, less the line feed and tab the whole report's own layout uses.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t" && OutsideText.isUnsafe(scalar)
    }
}
