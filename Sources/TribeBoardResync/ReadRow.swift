import GRDB
import TribeBoardCloudKit
import TribeBoardStore

/// A pending row as resync read it: its id and the values it uploads. What resync writes after
/// talking to CloudKit is a compare-and-set against these values, so that a row another writer
/// changed in the meantime (an audit repair, a provision run, a hand edit) keeps its `needs_sync`.
struct ReadRow: Sendable {
    let table: SyncTable
    let id: String
    let values: [DatabaseValue]

    /// Values are kept as stored, whatever they hold; only the id must be text. Text exactly: a
    /// blob GRDB would read as text never equals that text in SQL, so the row would stay pending
    /// and be fetched again after itself, for ever.
    init(_ table: SyncTable, _ row: Row) throws(StoreError) {
        self.table = table
        let stored = (row["id"] as (any DatabaseValueConvertible)?)?.databaseValue ?? .null
        guard case .string(let id) = stored.storage else {
            throw .unreadableValue(table: table.rawValue, rowID: "?", column: "id", found: StoreError.describe(stored, column: "id"))
        }
        // Read up to its NUL, the id would name no row, and paging after it would fetch it again.
        if row.integer(Self.idHoldsNUL) == 1 {
            throw .unreadableValue(table: table.rawValue, rowID: "?", column: "id", found: "a text holding a NUL character")
        }
        self.id = id
        values = PendingRecords.uploadedColumns(table).map { row[$0] ?? .null }
    }

    /// The column `SyncBookkeeping.duePage` adds: 1 when the id is text with a NUL inside.
    static let idHoldsNUL = "id_holds_nul"

    /// `(VALUES (?, ?, ...), ...)`: id then the uploaded columns, one tuple per row.
    static func values(_ rows: [ReadRow]) -> String {
        let tuple = "(" + Array(repeating: "?", count: (rows.first?.values.count ?? 0) + 1).joined(separator: ", ") + ")"
        return "(VALUES " + Array(repeating: tuple, count: rows.count).joined(separator: ", ") + ")"
    }

    static func arguments(_ rows: [ReadRow]) -> StatementArguments {
        var values: [DatabaseValue] = []
        values.reserveCapacity(rows.count * ((rows.first?.values.count ?? 0) + 1))
        for row in rows { values += [row.id.databaseValue] + row.values }
        return StatementArguments(values)
    }

    /// The table's row is the one in `alias` (a VALUES list) and still holds every uploaded value.
    static func unchanged(_ table: SyncTable, alias: String) -> String {
        let name = table.rawValue
        let columns = PendingRecords.uploadedColumns(table).enumerated().map { "\(name).\($1) IS \(alias).column\($0 + 2)" }
        return (["\(name).id = \(alias).column1"] + columns).joined(separator: " AND ")
    }

    func isUnchanged(_ db: Database) throws -> Bool {
        let conditions = PendingRecords.uploadedColumns(table).map { "\($0) IS ?" }.joined(separator: " AND ")
        return try Bool.fetchOne(db, sql: "SELECT 1 FROM \(table.rawValue) WHERE id = ? AND \(conditions)",
                                 arguments: StatementArguments([id.databaseValue] + values)) ?? false
    }
}

/// A due row as fetched, with what resync compares against when it writes back.
struct DueRow {
    let row: Row
    let read: ReadRow
}

/// A record to upload, and the row it was made from.
package struct Upload: Sendable {
    let record: CloudKitRecord
    let read: ReadRow
}

/// A due family decoded, for the remote check of its code.
struct DueFamily: Sendable {
    let family: Family
    let read: ReadRow
}
