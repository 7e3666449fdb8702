import CSV
import Foundation

/// `manifest.csv` read back with a real CSV parser, as an operator's spreadsheet would.
package struct ManifestRow: Sendable, Equatable {
    package let line: Int
    package let externalId: String
    package let familyId: String
    package let familyName: String
    package let code: String
    package let qrFile: String
    package let status: String
    package let error: String
    /// `claimed`, `unclaimed`, or empty (a failed row, or a manifest of before the column).
    package var claim = ""
}

package enum ManifestFile {
    package static func read(_ path: String) throws -> [ManifestRow] {
        var text = try String(contentsOfFile: path, encoding: .utf8)
        // Written in the input's dialect (provision --manifest-format): a BOM, then `line` and the
        // delimiter.
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let delimiter = text.unicodeScalars.dropFirst("line".count).first ?? ","
        let reader = try CSVReader(string: text, hasHeaderRow: true, delimiter: delimiter)
        let columns = [
            "line", "external_id", "family_id", "family_name", "code", "qr_file", "status", "error"
        ]
        guard let header = reader.headerRow, header == columns || header == columns + ["claim"]
        else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var rows: [ManifestRow] = []
        while let fields = reader.next() {
            guard fields.count == header.count, let line = Int(fields[0]) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            var row = ManifestRow(
                line: line, externalId: fields[1], familyId: fields[2], familyName: fields[3],
                code: fields[4], qrFile: fields[5], status: fields[6], error: fields[7])
            if fields.count > 8 { row.claim = fields[8] }
            rows.append(row)
        }
        return rows
    }
}
