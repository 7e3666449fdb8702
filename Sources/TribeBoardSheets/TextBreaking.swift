import CCairoPango

/// Breaking: how much text a space can hold at most, and words too long for pango to break
/// quickly cut into pieces it can.
extension TextBox {
    /// The most characters that can fit in `regions` at `points`: every character is at least
    /// 0.2 em wide and every line at least 1 em high. A longer text cannot fit, so pango never
    /// sees more than this (a 60 KB wording or 30,000 lines cost what a card can show).
    static func capacity(of regions: [PageRect], points: Double) -> Int {
        let area = regions.reduce(0.0) { $0 + max($1.width, 0) * max($1.height, 0) }
        let perCharacter = max(points * points * 0.2, 1)
        return Int(min(area / perCharacter, 1_000_000)) + 1
    }

    /// Runs of more than `longRun` characters with no break opportunity (one unbroken word of
    /// thousands of letters, a long web address) get a zero-width space every `piece` letters:
    /// pango breaks such a word by trying each position, which costs the square of its length;
    /// a word this long is wider than any card or letter, so it is broken within itself anyway,
    /// and pieces this short fill each line (a break only every 64 letters left short lines).
    static let longRun = 64
    static let piece = 16

    /// Whether pango finds break opportunities at or around `scalar` by itself: spaces, hyphens,
    /// and the scripts it breaks between letters or by dictionary (Thai, Lao, Khmer, Myanmar; CJK).
    private static func breaks(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2D, 0x200B, 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x2E80...: return true
        default: return scalar.properties.isWhitespace
        }
    }

    static func breakingLongRuns(_ text: String) -> String {
        // Most texts have no such run: they are returned as they are, after one pass.
        var run = 0, longest = 0
        for scalar in text.unicodeScalars {
            run = breaks(scalar) ? 0 : run + 1
            longest = max(longest, run)
        }
        guard longest > longRun else { return text }
        // Counted in characters (a letter and its marks, an emoji sequence): never split.
        var result = "", word: [Character] = []
        func flush() {
            for (index, character) in word.enumerated() {
                if word.count > longRun, index > 0, index % piece == 0 { result.append("\u{200B}") }
                result.append(character)
            }
            word.removeAll(keepingCapacity: true)
        }
        for character in text {
            if character.unicodeScalars.contains(where: breaks) {
                flush()
                result.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return result
    }
}
