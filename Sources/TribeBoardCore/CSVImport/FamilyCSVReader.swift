import CSV
import Foundation

/// The columns provisioning understands, matched case-insensitively in any order.
public enum FamilyCSVColumn: String, CaseIterable, Sendable {
    case familyName = "family_name"
    case externalId = "external_id"
    case adminDisplayName = "admin_display_name"
    case adminAppleUserIdHash = "admin_apple_user_id_hash"
    case code
}

/// One record of the file with the physical line it starts on (what an editor shows).
public struct FamilyCSVRecord: Sendable, Equatable {
    public let line: Int
    public let fields: [FamilyCSVColumn: String]
    /// Set when the record's field count differs from the header's.
    public let fieldCountMismatch: (found: Int, expected: Int)?

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.line == rhs.line && lhs.fields == rhs.fields
            && lhs.fieldCountMismatch?.found == rhs.fieldCountMismatch?.found
    }
}

/// Streams records from an RFC 4180 file through CSV.swift: UTF-8 with or without BOM, LF or CRLF,
/// quoted fields with commas, quotes and newlines. Memory stays flat whatever the file's size.
public final class FamilyCSVReader {
    public let unknownColumns: [String]
    public let columns: Set<FamilyCSVColumn>
    private let reader: CSVReader
    private let stream: InputStream
    private let columnIndex: [(FamilyCSVColumn, Int)]
    private let headerWidth: Int
    private var nextLine: Int

    public init(path: String) throws(CSVImportError) {
        guard let stream = InputStream(fileAtPath: path) else {
            throw .cannotOpen(path: path, reason: "no such file")
        }
        self.stream = stream
        do {
            reader = try CSVReader(stream: stream, hasHeaderRow: true)
        } catch CSVError.cannotReadHeaderRow {
            throw .empty
        } catch {
            throw .unreadable(reason: "\(error)")
        }
        let header = reader.headerRow ?? []
        var index: [(FamilyCSVColumn, Int)] = []
        var unknown: [String] = []
        for (position, rawName) in header.enumerated() {
            let name = rawName.trimmed.lowercased()
            guard let column = FamilyCSVColumn(rawValue: name) else {
                if !name.isEmpty { unknown.append(rawName) }
                continue
            }
            if index.contains(where: { $0.0 == column }) { throw .duplicateColumn(column.rawValue) }
            index.append((column, position))
        }
        guard index.contains(where: { $0.0 == .familyName }) else { throw .missingColumn(FamilyCSVColumn.familyName.rawValue) }
        columnIndex = index
        columns = Set(index.map(\.0))
        unknownColumns = unknown
        headerWidth = header.count
        nextLine = 2 + Self.lineBreaks(in: header)
    }

    /// The next non-blank record, or nil at the end of the file.
    public func next() throws(CSVImportError) -> FamilyCSVRecord? {
        while let values = reader.next() {
            let line = nextLine
            nextLine += 1 + Self.lineBreaks(in: values)
            if values.allSatisfy(\.isBlank) { continue }
            var fields: [FamilyCSVColumn: String] = [:]
            for (column, position) in columnIndex where position < values.count {
                fields[column] = values[position]
            }
            let mismatch = values.count == headerWidth ? nil : (found: values.count, expected: headerWidth)
            return FamilyCSVRecord(line: line, fields: fields, fieldCountMismatch: mismatch)
        }
        // CSV.swift reports a normal end of file on Linux as cannotReadFile: only a stream that is
        // not at its end has really failed.
        if let error = reader.error {
            if case CSVError.cannotReadFile = error, stream.streamStatus == .atEnd { return nil }
            throw .unreadable(reason: "after line \(nextLine - 1): \(error)")
        }
        return nil
    }

    static func lineBreaks(in values: [String]) -> Int {
        values.reduce(0) { total, value in
            total + value.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
    }
}
