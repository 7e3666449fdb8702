import Foundation
import GRDB
import Testing
import TribeBoardDomain
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardStore

/// The store's typed records read what provision wrote and write what sqlite3 reads back, column
/// for column: the store's format does not change, and a malformed value is a thrown error, not a
/// trap. (`Timestamp` alone is TimestampTests', in the domain's target.)
struct StoreRecordsTests {
    static let hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    static let csv = "external_id,family_name,admin_display_name,admin_apple_user_id_hash\nE1,Okafor,Ada,\(hash)\nE2,Ngata,Rua,\n"

    func sqlite(_ path: String, _ sql: String) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/sqlite3", [path, sql])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func provisionedRowsDecodeAsTypedRecords() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let queue = try DatabaseQueue(path: workspace.storePath)
        let (families, profiles, memberships, log) = try queue.read { db in
            (try Family.order(Column("import_key")).fetchAll(db), try UserProfile.fetchAll(db),
             try Membership.fetchAll(db), try CreationLogEntry.fetchAll(db))
        }
        #expect(families.map(\.name) == ["Okafor", "Ngata"])
        #expect(families.allSatisfy { $0.needsSync && $0.lastSyncDate == nil && UUID(uuidString: $0.id.rawValue) != nil })
        #expect(profiles.first { $0.displayName == "Ada" }?.appleUserIdHash == Self.hash)
        #expect(profiles.first { $0.displayName == "Rua" }?.appleUserIdHash == nil, "NULL stays nil, not \"\"")
        #expect(Set(memberships.map(\.role)) == [.parentAdmin])
        #expect(Set(memberships.map(\.status)) == [.active, .invited])
        #expect(Set(memberships.map(\.familyID)) == Set(families.map(\.id)))
        #expect(log.filter { $0.state == .completed }.count == 2)
        // The timestamp a record decodes is the text sqlite3 shows, to the millisecond.
        let id = try #require(families.first?.id)
        #expect(try sqlite(workspace.storePath, "SELECT created_at FROM families WHERE id = '\(id)'") == families[0].createdAt.text)
    }

    @Test func aWrittenRecordIsTheRowSqliteReads() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let queue = try DatabaseQueue(path: workspace.storePath)
        let at = try #require(Timestamp(text: "2026-11-23T07:30:00.250Z"))
        let entry = SyncStateEntry(table: .userProfiles, recordID: "ABC", status: .quarantined, attempts: 3, lastError: "BAD_REQUEST: x",
                                   lastAttemptAt: at, nextAttemptAt: nil, conflictWith: nil)
        try queue.write { db in try entry.insert(db) }
        #expect(try sqlite(workspace.storePath, "SELECT record_table, status, attempts, last_attempt_at, next_attempt_at IS NULL FROM sync_state")
                == "user_profiles|quarantined|3|2026-11-23T07:30:00.250Z|1")
        #expect(try queue.read { db in try SyncStateEntry.fetchOne(db) } == entry)
    }

    @Test func aHandEditedValueIsAThrownErrorNotATrap() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        _ = try sqlite(workspace.storePath, "UPDATE families SET created_at = 'yesterday' WHERE import_key = 'ext:E1'")
        _ = try sqlite(workspace.storePath, "UPDATE memberships SET status = 'active' WHERE status = 'invited'")
        _ = try sqlite(workspace.storePath, "UPDATE families SET code = x'FF' WHERE import_key = 'ext:E2'")
        let queue = try DatabaseQueue(path: workspace.storePath)
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM families") }
        #expect(rows.count == 2)
        for row in rows { #expect(throws: (any Error).self) { try Family(row: row) } }
    }
}
