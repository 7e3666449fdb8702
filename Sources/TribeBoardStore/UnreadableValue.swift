import GRDB
import TribeBoardSupport

extension StoreError {
    /// `error`, thrown while reading `row` of `table` as a typed record, as the row and column it
    /// concerns. GRDB's `RowDecodingError` keeps its column private and names it only in its
    /// description (`- column: "name"`); a `DecodingError` names it in its coding path.
    package static func undecodable(_ row: Row, table: String, idColumn: String = "id", error: any Error) -> StoreError {
        var column: String?
        if let decoding = error as? DecodingError {
            switch decoding {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
                column = context.codingPath.first?.stringValue
            @unknown default: break
            }
        }
        let text = String(describing: error)
        if column == nil, let start = text.range(of: "column: \"") {
            column = text[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
        }
        let name = column.flatMap { row.hasColumn($0) ? $0 : nil }
        return .unreadableValue(table: table, rowID: row.text(idColumn) ?? "?",
                                column: name ?? "a column",
                                found: name.map { describe(row[$0] as DatabaseValue, column: $0) } ?? "a value")
    }

    /// A stored value as an error names it: its kind, and the text itself unless it is a code
    /// (codes are never printed in diagnostics) or too long to be useful.
    package static func describe(_ value: DatabaseValue, column: String) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .blob(let data): return "a blob of \(data.count) byte\(data.count == 1 ? "" : "s")"
        case .int64(let number): return "the number \(number)"
        case .double(let number): return "the number \(number)"
        case .string(let text):
            if column.contains("code") || text.count > 40 { return "a text of \(text.count) characters" }
            return "\"\(text)\""
        }
    }
}

extension FetchableRecord {
    /// The row as this record, or `StoreError.unreadableValue` naming the table, the row's id and
    /// the column that does not hold what the format allows: never a trap, never a guess.
    package static func decoded(_ row: Row, table: String, idColumn: String = "id") throws(StoreError) -> Self {
        do {
            return try Self(row: row)
        } catch {
            throw StoreError.undecodable(row, table: table, idColumn: idColumn, error: error)
        }
    }
}

extension StoreError {
    /// An underlying error as a store error's reason. GRDB's `RowDecodingError` describes the whole
    /// row and the statement's arguments, which may hold family codes: that part is left out (the
    /// column it names stays), as codes are never printed in diagnostics or error documents.
    package static func reason(_ error: any Error) -> String {
        guard error is RowDecodingError else { return error.readableDescription }
        let text = String(describing: error)
        guard error is RowDecodingError, let row = text.range(of: "row: ") else { return text }
        var kept = String(text[..<row.lowerBound])
        while kept.hasSuffix(" ") || kept.hasSuffix(",") || kept.hasSuffix("-") { kept.removeLast() }
        return kept
    }
}
