import Foundation
import TribeBoardCSV

/// How `manifest.csv` is written: by default in the input's own dialect, so that the spreadsheet
/// that saved the input opens the manifest in columns too (French Excel saves `;` with a UTF-8
/// byte order mark, and opens a comma file without one as a single column of mangled accents).
package enum ManifestFormat: String, CaseIterable, Sendable, Encodable {
    /// The input's delimiter, and a byte order mark if the input had one.
    case input
    /// RFC 4180: commas, UTF-8 without a byte order mark (scripts, most tools).
    case comma
    case semicolon
    case tab
    /// Commas with a byte order mark: Excel where the list separator is the comma (US, UK).
    case excel
    /// Semicolons with a byte order mark: Excel in most of Europe.
    case excelEU = "excel-eu"

    /// The delimiter and byte order mark for an input read with `format`.
    func dialect(input format: CSVFormat, byteOrderMark: Bool) -> ManifestDialect {
        switch self {
        case .input:
            // Only the three a spreadsheet opens as columns; an exotic `sep=|` gets commas.
            let delimiter: UInt8 =
                [0x2C, 0x3B, 0x09].contains(format.delimiter) ? format.delimiter : 0x2C
            return ManifestDialect(delimiter: delimiter, byteOrderMark: byteOrderMark)
        case .comma: return ManifestDialect(delimiter: 0x2C, byteOrderMark: false)
        case .semicolon: return ManifestDialect(delimiter: 0x3B, byteOrderMark: false)
        case .tab: return ManifestDialect(delimiter: 0x09, byteOrderMark: false)
        case .excel: return ManifestDialect(delimiter: 0x2C, byteOrderMark: true)
        case .excelEU: return ManifestDialect(delimiter: 0x3B, byteOrderMark: true)
        }
    }
}

/// The manifest's bytes as written: what the report states.
package struct ManifestDialect: Encodable, Sendable, Equatable {
    let delimiter: UInt8
    package let byteOrderMark: Bool

    /// `comma`, `semicolon` or `tab`.
    package var delimiterName: String {
        switch delimiter {
        case 0x3B: return "semicolon"
        case 0x09: return "tab"
        default: return "comma"
        }
    }

    private enum CodingKeys: String, CodingKey { case delimiter, byteOrderMark }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(delimiterName, forKey: .delimiter)
        try container.encode(byteOrderMark, forKey: .byteOrderMark)
    }
}
