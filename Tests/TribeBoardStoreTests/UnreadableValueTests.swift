import Foundation
import GRDB
import Testing
import TribeBoardTestSupport
@testable import TribeBoardStore

/// A hand-edited value becomes `StoreError.unreadableValue` naming the table, the row and the
/// column. GRDB names the column only in its error's description: this pins that it is found.
@Suite struct UnreadableValueTests {
    static var family: [String: (any DatabaseValueConvertible)?] { [
        "id": "F1", "name": "Müller", "code": "ABC234", "created_by_user_id": "U1", "created_at": "2026-11-23T07:30:00.250Z",
        "needs_sync": 1, "last_sync_date": nil, "ck_record_id": nil, "import_key": nil, "source_line": 2, "code_verified_remotely_at": nil,
    ] }

    static func decodeFamily(_ changes: [String: (any DatabaseValueConvertible)?]) -> StoreError? {
        let row = Row(family.merging(changes) { $1 })
        do {
            _ = try Family.decoded(row, table: "families")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("created_at", "yesterday".databaseValue, "\"yesterday\""),
        ("name", Data([0xFF]).databaseValue, "a blob of 1 byte"),
        ("source_line", 1e30.databaseValue, "the number 1e+30"),
        ("last_sync_date", 12.databaseValue, "the number 12"),
        ("code", Data([0xC3]).databaseValue, "a blob of 1 byte"),  // not UTF-8 (SQLite reads a UTF-8 blob as text)
        ("code", 12_345_678.databaseValue, "the number 12345678"),
    ])
    func aFamilyColumnThatIsNotInTheFormatIsNamed(column: String, value: DatabaseValue, found: String) {
        #expect(Self.decodeFamily([column: value]) == .unreadableValue(table: "families", rowID: "F1", column: column, found: found))
    }

    @Test func aCodeIsNeverQuoted() {
        #expect(Self.decodeFamily(["code": "SECRET", "created_at": "later"])
                == .unreadableValue(table: "families", rowID: "F1", column: "created_at", found: "\"later\""))
        #expect(StoreError.describe("SECRET".databaseValue, column: "code") == "a text of 6 characters")
    }

    @Test func aSyncStateRowIsNamedByItsRecordID() {
        let row = Row(["record_table": "odd", "record_id": "M1", "status": "retrying", "attempts": 1, "last_error": nil,
                       "last_attempt_at": nil, "next_attempt_at": nil, "conflict_with": nil])
        #expect(throws: StoreError.unreadableValue(table: "sync_state", rowID: "M1", column: "record_table", found: "\"odd\"")) {
            try SyncStateEntry.decoded(row, table: "sync_state", idColumn: "record_id")
        }
    }

    /// What resync gives as the reason when it sets such a row aside.
    @Test func anUnknownRoleIsTheReasonAMembershipCannotGoUp() {
        let row = Row(["id": "M1", "family_id": "F1", "user_id": "U1", "role": "overlord", "status": "active",
                       "joined_at": "2026-11-23T07:30:00.250Z", "last_role_change_at": nil, "needs_sync": 1, "last_sync_date": nil, "ck_record_id": nil])
        guard case .failure(let error) = StoreRecord.decoded(.memberships, row: row) else {
            Issue.record("an unknown role decoded")
            return
        }
        #expect(error == .unreadableValue(table: "memberships", rowID: "M1", column: "role", found: "\"overlord\""))
    }

    @Test func aWellFormedRowDecodes() throws {
        #expect(try Family.decoded(Row(Self.family), table: "families").id.rawValue == "F1")
    }

    /// GRDB describes a failed decoding with the whole row and the statement's arguments: a store
    /// error's reason (stderr, the --json error document) keeps the column, never the row's code.
    @Test func aDecodingFailureNamesTheColumnButNotTheRowsValues() throws {
        struct Pair: Decodable, FetchableRecord { let name: String; let code: String }
        let queue = try DatabaseQueue()
        let thrown = try queue.read { db -> (any Error)? in
            do { _ = try Pair.fetchOne(db, sql: "SELECT NULL AS name, ? AS code", arguments: ["SECRET9"]) } catch { return error }
            return nil
        }
        let error = try #require(thrown)
        #expect(String(describing: error).contains("SECRET9"), "GRDB's own description shows the row (what is redacted)")
        let reason = StoreError.reason(error)
        #expect(!reason.contains("SECRET9"), "\(reason)")
        #expect(reason.contains("\"name\""), "\(reason)")
        #expect(StoreError.reading(error, store: nil).localizedDescription.contains("SECRET9") == false)
    }
}
