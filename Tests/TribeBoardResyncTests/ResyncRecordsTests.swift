import Foundation
import GRDB
import Testing
import TribeBoardCloudFixtures
import TribeBoardDomain
import TribeBoardTestSupport
@testable import TribeBoardRemote
@testable import TribeBoardStore

/// What resync reads from the store and how it takes a container's answers: dates as the store
/// writes them, rows edited by hand, a CONFLICT where an existing record was expected.
struct ResyncRecordsTests {
    /// A code that is a non-UTF-8 blob used to stop resync with a trap; now that family alone is set
    /// aside with the reason, and the others go up.
    @Test func resyncSetsAHandEditedRowAsideAndUploadsTheRest() async throws {
        let (workspace, ids) = try ResyncFixtures.threeFamilies()
        try await DatabaseQueue(path: workspace.storePath).write { db in
            try db.execute(sql: "UPDATE families SET code = x'FF' WHERE id = ?", arguments: [ids[1]])
            try db.execute(sql: "UPDATE families SET created_at = 'yesterday' WHERE id = ?", arguments: [ids[2]])
        }
        let report = try await ResyncFixtures.resync(workspace.storePath, ScriptedCloudKitServer.Script())
        #expect(try workspace.inspector().strings("SELECT id FROM families WHERE needs_sync = 0") == [ids[0]])
        #expect(Set(try workspace.inspector().strings("SELECT record_id FROM sync_state WHERE status = 'quarantined'")) == [ids[1], ids[2]])
        #expect(report.quarantined == 2 && report.synced >= 1)
    }

    /// Every create answered CONFLICT, as native CloudKit reports an insert of an existing record:
    /// the records are looked up, found as sent, and counted as uploaded, not quarantined.
    @Test func conflictOnACreateIsLookedUpLikeExists() async throws {
        let (workspace, ids) = try ResyncFixtures.threeFamilies()
        let script = ScriptedCloudKitServer.Script.createsAnswered("CONFLICT", remembering: SentRecords())
        let report = try await ResyncFixtures.resync(workspace.storePath, script)
        #expect(report.synced == 3, "\(report.stoppedBy ?? "")")
        #expect(try workspace.inspector().count("SELECT COUNT(*) FROM families WHERE needs_sync = 1") == 0)
        #expect(try workspace.inspector().count("SELECT COUNT(*) FROM sync_state") == 0)
        #expect(ids.count == 3)
    }
}
