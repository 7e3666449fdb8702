import Foundation
import GRDB
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardResync
@testable import TribeBoardStore

/// `PendingRow.uploadedColumns` is what resync's compare-and-set holds a row to while its upload
/// is on the wire: it must be exactly the columns the uploaded record is made of. Each column of
/// each synced table is changed in turn; the record the app would receive changes exactly when the
/// column is listed. A column the mapping uploads but the list forgets (the row changed mid-upload
/// would be marked uploaded with its old values) fails here, by name.
@Suite("Uploaded columns")
struct UploadedColumnsTests {
    /// Values tried for a column, until one the typed record accepts and that differs.
    static let candidates: [DatabaseValue] = [
        "2001-02-03T04:05:06.789Z".databaseValue, UUID().uuidString.databaseValue, "adult".databaseValue,
        "invited".databaseValue, "https://example.org/b.png".databaseValue, "Zedd".databaseValue, "ZEDD42".databaseValue,
        CSVFixtures.hexHash(2).databaseValue, 7.databaseValue,
    ]

    static func record(_ table: SyncTable, _ values: [String: DatabaseValue]) -> CloudKitRecord? {
        let row = Row(values.mapValues { $0 as (any DatabaseValueConvertible)? })
        return try? StoreRecord.decoded(table, row: row).get().appRecord.get()
    }

    /// The columns whose change changes the uploaded record, and those no candidate could change.
    static func columnsThatChangeTheRecord(_ table: SyncTable, _ row: Row) throws -> (changing: Set<String>, untried: [String]) {
        var values: [String: DatabaseValue] = [:]
        for column in row.columnNames { values[column] = row[column] }
        let original = try #require(record(table, values), "\(table.rawValue): the row is not uploadable as it is")
        var changing = Set<String>()
        var untried: [String] = []
        for column in row.columnNames where column != "id" {
            let tried = candidates.filter { $0 != values[column] }.compactMap { candidate -> CloudKitRecord? in
                var changed = values
                changed[column] = candidate
                return record(table, changed)
            }
            if tried.isEmpty { untried.append(column) }
            if tried.contains(where: { $0 != original }) { changing.insert(column) }
        }
        return (changing, untried)
    }

    @Test func theUploadedColumnsAreExactlyTheColumnsOfTheUploadedRecord() throws {
        for (table, row) in try ResyncFixtures.everyTableFilled() {
            let (changing, untried) = try Self.columnsThatChangeTheRecord(table, row)
            let listed = Set(PendingRow.uploadedColumns(table))
            #expect(changing.subtracting(listed).isEmpty, "\(table.rawValue): uploaded but not compared: \(changing.subtracting(listed).sorted())")
            #expect(listed.subtracting(changing).isEmpty, "\(table.rawValue): compared but not uploaded: \(listed.subtracting(changing).sorted())")
            #expect(listed.isDisjoint(with: untried), "\(table.rawValue): no candidate value fits \(untried)")
        }
    }
}
