import CSV
import Foundation
import TribeBoardDomain
import TribeBoardSupport

/// The columns provisioning understands, in any order: by name (any case), by a tolerant match of
/// a form's header ("Family name"), or as `--map` says (`HeaderMapping`).
package enum FamilyCSVColumn: String, CaseIterable, Sendable {
    case familyName = "family_name"
    case externalId = "external_id"
    case adminDisplayName = "admin_display_name"
    case adminAppleUserIdHash = "admin_apple_user_id_hash"
    case code
}

/// One record of the file with the physical line it starts on (what an editor shows).
package struct FamilyCSVRecord: Sendable, Equatable {
    package let line: Int
    package let fields: [FamilyCSVColumn: String]
    /// Set when the record's field count differs from the header's.
    package let fieldCountMismatch: (found: Int, expected: Int)?
    /// Set when the record breaks the quoting rules: its fields were not read.
    package let malformed: RowError?

    package init(
        line: Int, fields: [FamilyCSVColumn: String],
        fieldCountMismatch: (found: Int, expected: Int)? = nil,
        malformed: RowError? = nil
    ) {
        self.line = line
        self.fields = fields
        self.fieldCountMismatch = fieldCountMismatch
        self.malformed = malformed
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.line == rhs.line && lhs.fields == rhs.fields
            && lhs.fieldCountMismatch?.found == rhs.fieldCountMismatch?.found
            && lhs.malformed == rhs.malformed
    }
}

/// Streams records from an RFC 4180 file through CSV.swift: UTF-8 with or without BOM, LF or CRLF,
/// quoted fields with commas, quotes and newlines. Memory stays flat whatever the file's size.
package final class FamilyCSVReader {
    package let unknownColumns: [String]
    package let columns: Set<FamilyCSVColumn>
    /// Which header fed each column, and how it was matched (exact, tolerant, --map).
    package let columnSources: [ColumnSource]
    private let reader: CSVReader
    private let stream: InputStream
    private let columnIndex: [(FamilyCSVColumn, [Int])]
    private let headerWidth: Int
    private let header: [String]
    private var nextLine: Int
    /// The pre-scan's malformed records not handed out yet, and a parsed record held back while
    /// one that comes before it is.
    private var malformed: ArraySlice<CSVMalformedRecord>
    private var heldBack: FamilyCSVRecord?
    private let cleanCopy: CSVCleanCopy?

    /// Reads `path`; `malformed` (from `CSVPreScan`) are the records CSV.swift must not see: the
    /// reader parses a copy with their lines blanked and hands each over, in its place, as a
    /// record that fails.
    package init(
        path: String, malformed: [CSVMalformedRecord] = [], format: CSVFormat = .standard,
        mapping: HeaderMapping = HeaderMapping()
    ) throws(CSVImportError) {
        let cleanCopy =
            malformed.isEmpty && format.headerLine == 1
            ? nil
            : try CSVCleanCopy(
                of: path, blanking: malformed, droppingFirstLine: format.headerLine == 2)
        guard let stream = InputStream(fileAtPath: cleanCopy?.path ?? path) else {
            throw .cannotOpen(path: path, reason: "no such file")
        }
        self.cleanCopy = cleanCopy
        self.malformed = malformed[...]
        self.stream = stream
        do {
            reader = try CSVReader(
                stream: stream, hasHeaderRow: true, delimiter: Unicode.Scalar(format.delimiter))
        } catch CSVError.cannotReadHeaderRow {
            throw .empty
        } catch {
            throw .unreadable(reason: "\(error)")
        }
        let header = reader.headerRow ?? []
        let sources = try mapping.resolve(header)
        let index = sources.map { ($0.field, $0.positions) }
        let fed = Set(sources.flatMap(\.positions))
        let unknown = header.indices.filter { !fed.contains($0) && !header[$0].trimmed.isEmpty }.map
        { header[$0] }
        guard index.contains(where: { $0.0 == .familyName }) else {
            throw .missingColumnInHeader(
                FamilyCSVColumn.familyName.rawValue, header: header, delimiter: format.delimiterName
            )
        }
        columnIndex = index
        columnSources = sources
        columns = Set(index.map(\.0))
        unknownColumns = unknown
        headerWidth = header.count
        self.header = header
        nextLine = format.headerLine + 1 + Self.lineBreaks(in: header)
    }

    /// The next non-blank record, or nil at the end of the file: parsed records and malformed ones
    /// in the order of their lines.
    package func next() throws(CSVImportError) -> FamilyCSVRecord? {
        let parsed: FamilyCSVRecord?
        if let held = heldBack {
            parsed = held
            heldBack = nil
        } else {
            parsed = try nextParsed()
        }
        if let bad = malformed.first, bad.line < parsed?.line ?? Int.max {
            malformed = malformed.dropFirst()
            heldBack = parsed
            let column =
                bad.field <= header.count ? header[bad.field - 1].trimmed : "field \(bad.field)"
            return FamilyCSVRecord(
                line: bad.line, fields: [:], malformed: RowError(column: column, bad.reason))
        }
        return parsed
    }

    private func nextParsed() throws(CSVImportError) -> FamilyCSVRecord? {
        while let values = reader.next() {
            let line = nextLine
            nextLine += 1 + Self.lineBreaks(in: values)
            if values.allSatisfy(\.isBlank) { continue }
            var fields: [FamilyCSVColumn: String] = [:]
            for (column, positions) in columnIndex {
                let cells = positions.filter { $0 < values.count }.map { values[$0] }
                guard !cells.isEmpty else { continue }
                // A join ("First name+Last name"): the cells that hold something, one space apart.
                let value =
                    cells.count == 1
                    ? cells[0] : cells.map(\.trimmed).filter { !$0.isEmpty }.joined(separator: " ")
                fields[column] = Self.normalized(value)
            }
            let mismatch =
                values.count == headerWidth ? nil : (found: values.count, expected: headerWidth)
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

    /// The one place where text from a CSV becomes the keys and names the store keeps, compares
    /// and looks up: in Unicode NFC. macOS tools re-export "Zoë" decomposed (NFD, e + U+0308);
    /// the store compares bytes, so without this the same family would be a new one. ASCII (most
    /// fields) is NFC already and skips Foundation's bridge.
    static func normalized(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 >= 0x80 }) else { return value }
        return value.precomposedStringWithCanonicalMapping
    }

    static func lineBreaks(in values: [String]) -> Int {
        values.reduce(0) { total, value in
            total + value.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
    }
}
