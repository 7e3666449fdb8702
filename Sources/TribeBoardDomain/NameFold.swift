import Foundation

/// Names as people type them, folded so that two spellings of one name compare equal: case,
/// diacritics and width ignored ("MÜLLER" and "muller"), runs of whitespace made one space, ends
/// trimmed. The same fold as `doctor family NAME`'s search, plus the whitespace, which a form
/// filled in twice rarely types the same way.
package enum NameFold {
    package static func fold(_ text: String) -> String {
        // A bulk run folds two names per row: plain ASCII (most rows) skips Foundation's fold,
        // which for ASCII only lowers the case.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiFold(text) }
        let folded = text.precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private static func asciiFold(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
                pendingSpace = !bytes.isEmpty
            default:
                if pendingSpace { bytes.append(0x20); pendingSpace = false }
                bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
