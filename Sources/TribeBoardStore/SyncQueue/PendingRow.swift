import GRDB
import TribeBoardDomain

/// A pending row as resync read it: its id and the values it uploads. What resync writes after
/// talking to CloudKit is a compare-and-set against these values, so that a row another writer
/// changed in the meantime (an audit repair, a provision run, a hand edit) keeps its `needs_sync`.
package struct PendingRow: Sendable {
    package let table: SyncTable
    package let id: String
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
        values = Self.uploadedColumns(table).map { row[$0] ?? .null }
    }

    /// The column `SyncQueue.duePage` adds: 1 when the id is text with a NUL inside.
    static let idHoldsNUL = "id_holds_nul"

    /// The columns a record uploads (the app's CloudKit fields), from its typed record: every
    /// column but the id and those it declares local. What resync writes after an upload (marked
    /// synced, code verified, set aside) holds only while the row still has the values it
    /// uploaded: an audit repair may give a family a new code while its old one is on the wire.
    package static func uploadedColumns(_ table: SyncTable) -> [String] {
        switch table {
        case .families: return familyColumns
        case .userProfiles: return profileColumns
        case .memberships: return membershipColumns
        }
    }

    /// Derived once: `PendingRow` reads them for every row of a page.
    private static let familyColumns = Family.uploadedColumns
    private static let profileColumns = UserProfile.uploadedColumns
    private static let membershipColumns = Membership.uploadedColumns

    /// `(VALUES (?, ?, ...), ...)`: id then the uploaded columns, one tuple per row.
    static func values(_ rows: [PendingRow]) -> String {
        let tuple = "(" + Array(repeating: "?", count: (rows.first?.values.count ?? 0) + 1).joined(separator: ", ") + ")"
        return "(VALUES " + Array(repeating: tuple, count: rows.count).joined(separator: ", ") + ")"
    }

    static func arguments(_ rows: [PendingRow]) -> StatementArguments {
        var values: [DatabaseValue] = []
        values.reserveCapacity(rows.count * ((rows.first?.values.count ?? 0) + 1))
        for row in rows { values += [row.id.databaseValue] + row.values }
        return StatementArguments(values)
    }

    /// The table's row is the one in `alias` (a VALUES list) and still holds every uploaded value.
    static func unchanged(_ table: SyncTable, alias: String) -> String {
        let name = table.rawValue
        let columns = uploadedColumns(table).enumerated().map { "\(name).\($1) IS \(alias).column\($0 + 2)" }
        return (["\(name).id = \(alias).column1"] + columns).joined(separator: " AND ")
    }

    func isUnchanged(_ db: Database) throws -> Bool {
        let conditions = Self.uploadedColumns(table).map { "\($0) IS ?" }.joined(separator: " AND ")
        return try Bool.fetchOne(db, sql: "SELECT 1 FROM \(table.rawValue) WHERE id = ? AND \(conditions)",
                                 arguments: StatementArguments([id.databaseValue] + values)) ?? false
    }
}

/// One of the app's records as the store holds it.
package enum StoreRecord: Sendable {
    case family(Family)
    case userProfile(UserProfile)
    case membership(Membership)

    /// The row as its typed record, or the error naming the column that does not hold what the
    /// store's format allows (a hand-edited date, a blob, an unknown role).
    package static func decoded(_ table: SyncTable, row: Row) -> Result<StoreRecord, StoreError> {
        Result { () throws(StoreError) in
            switch table {
            case .families: return .family(try Family.decoded(row, table: table.rawValue))
            case .userProfiles: return .userProfile(try UserProfile.decoded(row, table: table.rawValue))
            case .memberships: return .membership(try Membership.decoded(row, table: table.rawValue))
            }
        }
    }
}

/// A row due for upload: what was read, and its typed record or why it cannot be one.
package struct DueRecord: Sendable {
    package let row: PendingRow
    package let record: Result<StoreRecord, StoreError>
}
