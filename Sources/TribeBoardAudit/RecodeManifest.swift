import Foundation
import TribeBoardSupport

/// The manifest line of a recoded family, in the manifest's own dialect: its delimiter (`,` `;`
/// or a tab, read from the header), its line ending and its byte-order mark are kept, and every
/// other byte of the file is left as it was. The family's row is replaced when the manifest has
/// one (so a reprint finds one card, with the new code), else appended; a missing manifest is
/// written with provision's columns.
enum RecodeManifest {
    static let header = ["line", "external_id", "family_id", "family_name", "code", "qr_file", "status", "error"]
    /// Far above a manifest of a million families: a larger file is not one this toolkit wrote.
    static let maximumBytes = 512 << 20

    struct Row {
        let externalID: String
        let familyID: String
        let familyName: String
        let code: String
        let qrFile: String

        func value(of column: String, old: String?) -> String {
            switch column {
            case "external_id": return externalID
            case "family_id": return familyID
            case "family_name": return familyName
            case "code": return code
            case "qr_file": return qrFile
            case "status": return "recoded"
            case "error": return ""
            // The new code's claim is not known here: `sheets` looks it up in the store.
            case "claim": return ""
            default: return old ?? ""
            }
        }
    }

    static func stagingPath(for manifest: String) -> String {
        let url = URL(fileURLWithPath: manifest)
        return url.deletingLastPathComponent().appendingPathComponent(".recode-\(url.lastPathComponent)").path
    }

    /// `qr/ID.png` when the manifest sits in the output folder (as provision writes it), else the PNG's absolute path.
    static func qrColumn(qrPath: String, manifestPath: String, outputDirectory: String) -> String {
        let manifestFolder = URL(fileURLWithPath: manifestPath).deletingLastPathComponent().standardizedFileURL.path
        let output = URL(fileURLWithPath: outputDirectory).standardizedFileURL.path
        let relative = String(qrPath.dropFirst(outputDirectory.count + 1))
        return manifestFolder == output ? relative : URL(fileURLWithPath: qrPath).standardizedFileURL.path
    }

    /// The manifest's new bytes.
    static func updated(at path: String, with row: Row) throws(FileSystemError) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else {
            let lines = [header, header.map { row.value(of: $0, old: nil) }].map { $0.map { escape($0, delimiter: 0x2C) }.joined(separator: ",") }
            return Array((lines.joined(separator: "\n") + "\n").utf8)
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw FileSystemError("read", path: path) }
        guard data.count <= maximumBytes else { throw FileSystemError("read", path: path, reason: "over \(maximumBytes >> 20) MB: not a manifest") }
        let bytes = [UInt8](data)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let records = parse(bytes, from: start)
        guard let headerRecord = records.first else { throw FileSystemError("read", path: path, reason: "no header row") }
        let names = headerRecord.fields
        guard let idColumn = names.firstIndex(of: "family_id"), names.contains("code") else {
            throw FileSystemError("read", path: path, reason: "no family_id or code column (is it a manifest.csv from provision?)")
        }
        let delimiter = headerRecord.delimiter
        let ending: [UInt8] = headerRecord.endsWithCRLF ? [0x0D, 0x0A] : [0x0A]
        func serialized(_ old: [String]?) -> [UInt8] {
            let fields = names.enumerated().map { index, name in
                row.value(of: name, old: old.flatMap { index < $0.count ? $0[index] : nil })
            }
            return Array(fields.map { escape($0, delimiter: delimiter) }.joined(separator: String(UnicodeScalar(delimiter))).utf8)
        }
        var output = Array(bytes[0..<headerRecord.end])
        var replaced = false
        for record in records.dropFirst() {
            if record.fields.count > idColumn, record.fields[idColumn] == row.familyID {
                output += serialized(record.fields) + record.lineEnding(in: bytes)
                replaced = true
            } else {
                output += bytes[record.start..<record.end]
            }
        }
        if !replaced {
            if let last = output.last, last != 0x0A { output += ending }
            output += serialized(nil) + ending
        }
        return output
    }

    struct Record {
        var start: Int
        /// After the record's line ending.
        var end: Int
        var fields: [String]
        var delimiter: UInt8
        var endsWithCRLF: Bool
        var contentEnd: Int

        func lineEnding(in bytes: [UInt8]) -> [UInt8] { Array(bytes[contentEnd..<end]) }
    }

    /// RFC 4180 records with their byte ranges (a quoted field may hold line breaks).
    static func parse(_ bytes: [UInt8], from start: Int) -> [Record] {
        var records: [Record] = []
        var delimiter: UInt8 = 0x2C
        var position = start
        while position < bytes.count {
            let recordStart = position
            var fields: [String] = []
            var field: [UInt8] = []
            var inQuotes = false
            var contentEnd = bytes.count
            var end = bytes.count
            if records.isEmpty { delimiter = headerDelimiter(bytes, from: start) }
            while position < bytes.count {
                let byte = bytes[position]
                if inQuotes {
                    if byte == 0x22 {
                        if position + 1 < bytes.count, bytes[position + 1] == 0x22 { field.append(0x22); position += 1 } else { inQuotes = false }
                    } else {
                        field.append(byte)
                    }
                } else if byte == 0x22 {
                    inQuotes = true
                } else if byte == delimiter {
                    fields.append(String(decoding: field, as: UTF8.self))
                    field = []
                } else if byte == 0x0A {
                    contentEnd = position > recordStart && bytes[position - 1] == 0x0D ? position - 1 : position
                    end = position + 1
                    break
                } else if byte != 0x0D {
                    field.append(byte)
                }
                position += 1
            }
            position = end
            fields.append(String(decoding: field, as: UTF8.self))
            records.append(Record(start: recordStart, end: end, fields: fields, delimiter: delimiter,
                                  endsWithCRLF: contentEnd + 2 == end, contentEnd: contentEnd))
        }
        return records
    }

    /// The header's delimiter: the first of `,` `;` tab it holds (manifest headers are plain words).
    static func headerDelimiter(_ bytes: [UInt8], from start: Int) -> UInt8 {
        for byte in bytes[start...] {
            if byte == 0x0A { break }
            if byte == 0x2C || byte == 0x3B || byte == 0x09 { return byte }
        }
        return 0x2C
    }

    /// CSVField's escaping (formula neutralised, RFC 4180 quotes), quoting a field that holds this delimiter too.
    static func escape(_ value: String, delimiter: UInt8) -> String {
        let escaped = CSVField.escape(value)
        guard delimiter != 0x2C, !escaped.hasPrefix("\""), escaped.utf8.contains(delimiter) else { return escaped }
        return "\"" + escaped.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
