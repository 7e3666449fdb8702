import Foundation
import GRDB
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardSupport
import TribeBoardTestSupport
@testable import TribeBoardRemote
@testable import TribeBoardResync
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

    /// A record under a family's own name with the very content resync would upload is an
    /// earlier run's upload only when this key created it (Apple: compare `created.userRecordName`
    /// with users/caller before treating a record as your own; only its creator may change or
    /// delete it, and the app follows this key's claim only to a family this key wrote). An app
    /// user's copy is a name conflict, which adopt closes, never marked uploaded.
    @Test func anIdenticalRecordAnotherCreatorWroteIsNotThisKeysUpload() async throws {
        let appUser = "_app_user_1"
        let fixture = try await EmulatorFixture.start(users: [appUser])
        defer { Task { await fixture.emulator.stop() } }
        let (workspace, ids) = try ResyncFixtures.threeFamilies()
        let row = try #require(try DatabaseQueue(path: workspace.storePath).read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM families WHERE id = ?", arguments: [ids[0]])
        })
        let record = try StoreRecord.decoded(.families, row: row).get().appRecord.get()
        let written = try await fixture.client(user: appUser).modify([CloudKitOperation(.create, record)])
        guard case .record? = written.first else { Issue.record("the app user's create: \(written)"); return }

        let run = ResyncRun(storePath: workspace.storePath, client: try fixture.client(), logger: TestLogger.quiet)
        let report = try await PipelineThread.run { try await run.run() }
        #expect(try workspace.inspector().strings("SELECT id FROM families WHERE needs_sync = 1") == [ids[0]])
        #expect(try workspace.inspector().strings("SELECT record_id FROM sync_state WHERE status = 'conflict'") == [ids[0]])
        #expect(report.nameConflicts == 1 && report.synced >= 2, "\(report.stoppedBy ?? "")")
    }
}
