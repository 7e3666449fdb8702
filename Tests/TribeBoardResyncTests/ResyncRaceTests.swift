import Foundation
import GRDB
import Logging
import Synchronization
import Testing
import TribeBoardCloudFixtures
import TribeBoardStoreFixtures
import TribeBoardSupport
import TribeBoardTestSupport
@testable import TribeBoardAudit
@testable import TribeBoardCloudKit
@testable import TribeBoardResync
@testable import TribeBoardStore

/// Resync against a server whose timing and answers a test scripts: another writer changes a row
/// while its upload is on the wire, or the answer does not line up with the request.
@Suite("Resync: races and answers that do not match")
struct ResyncRaceTests {
    static let logger = TestLogger.quiet

    /// Runs one resync of `store` against a scripted server, off the cooperative pool.

    /// Family 1's code is also held by an older CloudKit family: a repair gives family 1 a new code.
    static func repairable() throws -> (AuditWorkspace, [(id: String, name: String, code: String)]) {
        var workspace = try AuditWorkspace(families: 2)
        let families = try workspace.families()
        try workspace.snapshot.append(SnapshotFixture.family(code: families[1].code, createdAt: Date(timeIntervalSince1970: 1_600_000_000)))
        try workspace.snapshot.write(to: workspace.snapshotPath)
        return (workspace, families)
    }

    /// A server that runs `audit --repair --apply` of the workspace, as another process would,
    /// while the first request of `operation` waits for its answer.
    static func repairing(_ workspace: AuditWorkspace, during operation: String) -> ScriptedCloudKitServer.Script {
        var request = AuditRequest(storePath: workspace.provision.storePath, remote: .snapshot(path: workspace.snapshotPath))
        request.repair = .apply(outputDirectory: workspace.provision.folder.file("repair"))
        let repair = request
        var script = ScriptedCloudKitServer.Script()
        script.beforeAnswer = { answering, earlier, _ in
            if answering == operation && earlier == 0 { _ = try? await PipelineThread.run { () async throws(AuditError) in try await Auditor(request: repair, logger: logger).run() } }
        }
        return script
    }

    @Test("a repair during the upload: the repaired family keeps needs_sync, its new code unverified")
    func repairWhileUploading() async throws {
        let (workspace, families) = try Self.repairable()
        let script = Self.repairing(workspace, during: "records/modify")
        let report = try await ResyncFixtures.resync(workspace.provision.storePath, script)
        let rows = try workspace.provision.inspector().rows("SELECT id, code, needs_sync, code_verified_remotely_at FROM families ORDER BY source_line")
        #expect(rows[1]["code"] != families[1].code, "the repair happened")
        #expect(rows[1]["needs_sync"] == "1", "the new code never went up: it must stay pending")
        #expect(rows[0]["needs_sync"] == "0")
        #expect(report.pending.families == 1)
        #expect(report.exitKind == .tryLater)
    }

    @Test("a repair during the code check: the new code is not marked verified")
    func repairWhileCheckingCodes() async throws {
        let (workspace, families) = try Self.repairable()
        let script = Self.repairing(workspace, during: "records/query")
        _ = try await ResyncFixtures.resync(workspace.provision.storePath, script)
        let row = try #require(try workspace.provision.inspector().rows("SELECT code, needs_sync, code_verified_remotely_at FROM families WHERE id = '\(families[1].id)'").first)
        #expect(row["code"] != families[1].code)
        #expect(row["code_verified_remotely_at"] == nil, "CloudKit was asked about the old code, not this one")
        #expect(row["needs_sync"] == "1")
    }

    @Test("a row of any table changed while it is uploaded stays pending",
          arguments: [("families", "name = 'Renamed'"), ("user_profiles", "display_name = 'Renamed'"), ("memberships", "status = 'removed'")])
    func changedRowStaysPending(table: String, change: String) async throws {
        let workspace = try ProvisionWorkspace()
        // An admin with an Apple account hash: the profile and membership go up with the family.
        try workspace.run(CSVFixtures.header + "\nF1,Family Alpha,Admin 1,\(CSVFixtures.hexHash(1))\n")
        let id = try #require(try workspace.inspector().strings("SELECT id FROM \(table)").first)
        let storePath = workspace.storePath
        var script = ScriptedCloudKitServer.Script()
        script.beforeAnswer = { operation, _, body in
            let names = (body["operations"] as? [[String: Any]] ?? []).compactMap { ($0["record"] as? [String: Any])?["recordName"] as? String }
            guard operation == "records/modify", names.contains(id) else { return }
            _ = try? DatabaseQueue(path: storePath).write { db in
                try db.execute(sql: "UPDATE \(table) SET \(change), needs_sync = 1 WHERE id = ?", arguments: [id])
            }
        }
        let report = try await ResyncFixtures.resync(storePath, script)
        #expect(try workspace.inspector().strings("SELECT needs_sync FROM \(table) WHERE id = '\(id)'") == ["1"])
        #expect(report.synced == 2, "the other two records went up")
    }

    /// Three families; CloudKit refuses the first one's create with a data error.

    @Test("results in another order settle each record by its name")
    func reorderedResults() async throws {
        let (workspace, ids) = try ResyncFixtures.threeFamilies()
        var script = ScriptedCloudKitServer.Script()
        script.modifyResults = { results in
            results.map { ($0["recordName"] as? String) == ids[0] ? ScriptedCloudKitServer.failure(ids[0], "BAD_REQUEST") : $0 }.reversed()
        }
        let report = try await ResyncFixtures.resync(workspace.storePath, script)
        #expect(try workspace.inspector().strings("SELECT id FROM families WHERE needs_sync = 1") == [ids[0]])
        #expect(try workspace.inspector().strings("SELECT record_id FROM sync_state WHERE status = 'quarantined'") == [ids[0]])
        #expect(report.synced == 2 && report.stop == nil)
    }

    @Test("records/lookup answers in another order are matched by name too")
    func reorderedLookup() async throws {
        let (workspace, ids) = try ResyncFixtures.threeFamilies()
        // Every create answers EXISTS (a crash after an earlier upload); the lookup finds each
        // record as it was sent, in reverse order.
        let sent = SentRecords()
        var script = ScriptedCloudKitServer.Script.createsAnswered("EXISTS", remembering: sent)
        script.lookupResults = { names in
            // The first family's CloudKit copy is another record under its name: a conflict.
            names.reversed().map { name in
                var record = sent.record(name)
                if name == ids[0] { record["fields"] = ["name": ["type": "STRING", "value": "Someone else"]] }
                return record
            }
        }
        let report = try await ResyncFixtures.resync(workspace.storePath, script)
        #expect(try workspace.inspector().strings("SELECT id FROM families WHERE needs_sync = 1") == [ids[0]])
        #expect(try workspace.inspector().strings("SELECT record_id FROM sync_state WHERE status = 'conflict'") == [ids[0]])
        #expect(report.synced == 2 && report.stop == nil, "\(report.stoppedBy ?? "")")
    }

    @Test("a missing, repeated or unasked-for result stops the run and says which record",
          arguments: ["missing", "repeated", "unasked", "unnamed"])
    func unmatchedResults(kind: String) async throws {
        let (workspace, ids) = try ResyncFixtures.threeFamilies()
        let stranger = "00000000-0000-7000-8000-000000000000"
        var script = ScriptedCloudKitServer.Script()
        script.modifyResults = { results in
            switch kind {
            case "missing": return Array(results.dropLast())
            case "repeated": return results + [results[2]]
            case "unasked": return Array(results.dropLast()) + [["recordName": stranger, "recordType": "Family", "fields": [String: Any]()]]
            default: return Array(results.dropLast()) + [["serverErrorCode": "INTERNAL_ERROR"]]
            }
        }
        let report = try await ResyncFixtures.resync(workspace.storePath, script)
        let reason = try #require(report.stoppedBy)
        let expected = ["missing": "no result for \(ids[2])", "repeated": "several results for \(ids[2])",
                        "unasked": "a result for \(stranger), not in the request", "unnamed": "1 result without a record name"]
        #expect(reason.contains(expected[kind] ?? "?"), "\(reason)")
        #expect(report.exitKind == .tryLater)
        #expect(try workspace.inspector().strings("SELECT id FROM families WHERE needs_sync = 1") == [ids[2]], "only the unanswered record stays pending")
    }

    @Test("a store that fails during resync is a store error, not a CloudKit answer")
    func storeFailureKeepsItsIdentity() async throws {
        let (workspace, _) = try ResyncFixtures.threeFamilies()
        let storePath = workspace.storePath
        var script = ScriptedCloudKitServer.Script()
        script.beforeAnswer = { operation, _, _ in
            guard operation == "records/query" else { return }
            _ = try? DatabaseQueue(path: storePath).write { db in
                try db.execute(sql: "CREATE TRIGGER IF NOT EXISTS disk_full BEFORE UPDATE ON families BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END")
            }
        }
        await #expect {
            try await ResyncFixtures.resync(storePath, script)
        } throws: { error in
            guard case .store(.writeFailed)? = error as? ResyncRunError else { return false }
            return true
        }
        withExtendedLifetime(workspace) {}
    }
}
