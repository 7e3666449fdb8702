import Foundation

/// Names as people type them, folded so that two spellings of one name compare equal: case,
/// diacritics and width ignored ("MÜLLER" and "muller"), runs of whitespace made one space, ends
/// trimmed. The same fold as `doctor family NAME`'s search, plus the whitespace, which a form
/// filled in twice rarely types the same way.
package enum NameFold {
    package static func fold(_ text: String) -> String {
        // A run folds every name of the store (a million at most) and two per row: plain ASCII
        // and precomposed Latin letters (most names) take a table, 20 times cheaper than
        // Foundation's fold (4 µs a name), which does the rest.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(truncatingIfNeeded: scalar.value)
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
                    pendingSpace = !bytes.isEmpty
                default:
                    if pendingSpace { bytes.append(0x20); pendingSpace = false }
                    bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
                }
            } else if let folded = LatinTable.folded(scalar) {
                if pendingSpace { bytes.append(0x20); pendingSpace = false }
                bytes.append(contentsOf: folded)
            } else {
                return foundationFold(text)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The keys under which two registrations of one family meet: (folded name, folded admin
    /// name), and (folded name, admin hash) when the admin signed in. Provision's possible
    /// duplicates and the audit's "registered twice" compare the same way.
    package static func registrationKeys(name: String, adminName: String, adminHash: String?)
        -> [String]
    {
        let folded = fold(name)
        var keys = [folded + "\u{1F}a:" + fold(adminName)]
        if let adminHash { keys.append(folded + "\u{1F}h:" + adminHash.lowercased()) }
        return keys
    }

    static func foundationFold(_ text: String) -> String {
        let folded = text.precomposedStringWithCanonicalMapping
            .folding(
                options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Foundation's fold of each precomposed Latin letter (Latin-1 to Latin Extended-B, and
    /// Latin Extended Additional: Vietnamese), worked out once; letters whose fold is not
    /// plain ASCII, and anything else, go to Foundation with their whole name.
    enum LatinTable {
        static let ranges: [ClosedRange<UInt32>] = [0x00C0...0x024F, 0x1E00...0x1EFF]
        private static let table: [[UInt32: [UInt8]]] = ranges.map { range in
            var folds: [UInt32: [UInt8]] = [:]
            for value in range {
                guard let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic else {
                    continue
                }
                let folded = foundationFold(String(Character(scalar)))
                guard !folded.isEmpty, folded.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x80 }) else {
                    continue
                }
                folds[value] = Array(folded.utf8)
            }
            return folds
        }

        static func folded(_ scalar: Unicode.Scalar) -> [UInt8]? {
            for (index, range) in ranges.enumerated() where range.contains(scalar.value) {
                return table[index][scalar.value]
            }
            return nil
        }
    }
}
