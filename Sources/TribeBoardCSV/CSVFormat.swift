import Foundation

/// How a file separates its fields, read from its start as spreadsheets write them: a comma by
/// default, a semicolon (Excel in most of Europe) or a tab ("Text (tab-delimited)") when the
/// header row holds more of those than commas, and whatever an Excel `sep=;` first line names
/// (that line is then not the header). UTF-16, as Excel's "Unicode Text" saves, and UTF-32 are
/// refused, named as what they are, with the way out: this reader is UTF-8.
package struct CSVFormat: Sendable, Equatable {
    package let delimiter: UInt8
    /// 2 when the first line is `sep=X` and the header follows it.
    package let headerLine: Int

    package static let standard = CSVFormat(delimiter: 0x2C, headerLine: 1)

    var delimiterName: String {
        switch delimiter {
        case 0x2C: return "comma"
        case 0x3B: return "semicolon"
        case 0x09: return "tab"
        case 0x7C: return "vertical bar"
        default: return "\"\(Character(Unicode.Scalar(delimiter)))\""
        }
    }

    /// Looks at the first bytes of the file (a BOM included).
    static func detect(_ prefix: [UInt8]) throws(CSVImportError) -> CSVFormat {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let wide = wideEncoding(bytes) { throw wide }
        let firstLine = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        // Excel's hint line: `sep=;` (any one ASCII punctuation or a tab after the `=`).
        if firstLine.count == 5,
            Array(firstLine.prefix(4)).map({ $0 | 0x20 }) == Array("sep=".utf8),
            let separator = firstLine.last, separator == 0x09 || (0x21...0x7E).contains(separator),
            separator != 0x22
        {
            return CSVFormat(delimiter: separator, headerLine: 2)
        }
        var counts: [UInt8: Int] = [0x2C: 0, 0x3B: 0, 0x09: 0]
        var quoted = false
        for byte in firstLine {
            if byte == 0x22 {
                quoted.toggle()
            } else if !quoted, counts[byte] != nil {
                counts[byte, default: 0] += 1
            }
        }
        let best = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key != 0x2C) }
        guard let best, best.value > (counts[0x2C] ?? 0) else { return .standard }
        return CSVFormat(delimiter: best.key, headerLine: 1)
    }

    /// UTF-16 or UTF-32, by their BOM (UTF-32LE's starts as UTF-16LE's does, so it is looked for
    /// first) or, without one, by the zero bytes beside ASCII characters: one in two for UTF-16,
    /// three in four for UTF-32. A file of nothing but zeros is neither (it is not text at all).
    private static func wideEncoding(_ bytes: ArraySlice<UInt8>) -> CSVImportError? {
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00])
            || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF])
        {
            return .utf32
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return .utf16 }
        let sample = Array(bytes.prefix(64))
        guard sample.count >= 8 else { return nil }
        let zeros = sample.filter { $0 == 0 }.count
        if zeros == sample.count { return nil }
        if zeros * 3 >= sample.count * 2 { return .utf32 }
        return zeros * 3 >= sample.count ? .utf16 : nil
    }
}
