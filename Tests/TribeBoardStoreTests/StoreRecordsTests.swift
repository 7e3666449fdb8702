import Foundation
import GRDB
import Testing
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardTestSupport
@testable import TribeBoardStore
import TribeBoardRemote

/// The typed records read what provision wrote and write what sqlite3 reads back, column for
/// column: the store's format does not change, and a malformed value is a thrown error, not a trap.
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

    @Test func timestampsKeepMillisecondsAndRefuseProse() {
        #expect(Timestamp(text: "2026-11-23T07:30:00.250Z")?.text == "2026-11-23T07:30:00.250Z")
        #expect(Timestamp(text: "2026-11-23T07:30:00Z")?.text == "2026-11-23T07:30:00.000Z")
        #expect(Timestamp(text: "yesterday") == nil)
        #expect(Timestamp(Date(timeIntervalSince1970: 1.2345)) == Timestamp(Date(timeIntervalSince1970: 1.2346)))
        // .123 is .12299999… as a Date: formatting its fraction would write .122.
        #expect(Timestamp(text: "2026-11-23T07:30:12.123Z")?.text == "2026-11-23T07:30:12.123Z")
        #expect(Timestamp(text: "1969-12-31T23:59:59.999Z")?.text == "1969-12-31T23:59:59.999Z")
    }

    /// Every writer of store dates goes through `Timestamp`: the formatter StoreTimestamp used to
    /// call wrote 12:00:00.123 as .122 for some instants, and the CloudKit mapping read only
    /// fractional text.
    @Test func everyStoreDatePathAgreesWithTimestamp() throws {
        for text in ["2026-11-23T07:30:12.123Z", "2026-01-01T00:00:00.001Z", "2026-11-23T07:30:00.999Z"] {
            let date = try #require(Timestamp(text: text)).date
            #expect(StoreTimestamp.format(date) == text)
            #expect(RecordMapping.date(fromStoreTimestamp: text).map(StoreTimestamp.format) == text)
        }
        #expect(RecordMapping.date(fromStoreTimestamp: "2026-11-23T07:30:00Z").map(StoreTimestamp.format) == "2026-11-23T07:30:00.000Z")
    }

    /// A code that is a non-UTF-8 blob used to stop resync with a trap; now that family alone is set
    /// aside with the reason, and the others go up.
    @Test func resyncSetsAHandEditedRowAsideAndUploadsTheRest() async throws {
        let (workspace, ids) = try ResyncFixtures.threeFamilies()
        _ = try sqlite(workspace.storePath, "UPDATE families SET code = x'FF' WHERE id = '\(ids[1])'")
        _ = try sqlite(workspace.storePath, "UPDATE families SET created_at = 'yesterday' WHERE id = '\(ids[2])'")
        let report = try await ResyncFixtures.resync(workspace.storePath, ScriptedCloudKitServer.Script())
        #expect(try workspace.inspector().strings("SELECT id FROM families WHERE needs_sync = 0") == [ids[0]])
        #expect(Set(try workspace.inspector().strings("SELECT record_id FROM sync_state WHERE status = 'quarantined'")) == [ids[1], ids[2]])
        #expect(report.quarantined == 2 && report.synced >= 1)
    }
}
