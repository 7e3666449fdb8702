import Foundation

/// One cell of every CSV file the toolkit writes (manifest.csv, repairs.csv, audit --csv).
package enum CSVField {
    /// RFC 4180: quote a field holding a comma, quote or line break, doubling its quotes. A field
    /// that a spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a
    /// carriage return, as OWASP lists them) gets a leading `'`: spreadsheets show the text, and
    /// a program reading the file drops one leading `'` from such a field to get the value back.
    package static func escape(_ field: String) -> String { escape(field, delimiter: 0x2C) }

    /// `delimiter`: the file's, quoted too when it is not the comma.
    package static func escape(_ field: String, delimiter: UInt8) -> String {
        // Bytes, not Characters: grapheme breaking is measurable at 800,000 fields a run.
        let neutralized: String
        switch field.utf8.first {
        case 0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D: neutralized = "'" + field
        default: neutralized = field
        }
        let needsQuotes = neutralized.utf8.contains {
            $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D || $0 == delimiter
        }
        guard needsQuotes else { return neutralized }
        return "\"" + neutralized.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
