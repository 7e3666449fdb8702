import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardStore
import TribeBoardDomain
import TribeBoardTestSupport
import TribeBoardRemote

/// Families deleted in the CloudKit Console while the store marks them uploaded: the audit counts
/// them (never because a lagging query index missed a record) and its repair sends them again.
@Suite struct AuditMissingRemoteTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    struct Report: Decodable {
        struct Finding: Decodable {
            let category: String
            let count: Int
            let action: String
            let message: String
            let families: [Family]
        }
        struct Family: Decodable { let id: String }
        struct Repair: Decodable {
            let applied: Bool
            let reupload: [String]
        }
        let errors: Int
        let counts: [String: Int]
        let findings: [Finding]
        let repair: Repair?

        var missing: Finding? { findings.first { $0.category == "missing-remote" } }
    }

    func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments, in: directory.path)
    }

    func report(_ result: ProcessRunner.Result) throws -> Report {
        try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
    }

    /// Three families provisioned and uploaded to an emulator whose query index lags a minute:
    /// every query of the audits below misses every record, so only lookups can tell.
    func uploaded(_ fixture: EmulatorFixture) async throws -> (TemporaryDirectory, [String]) {
        let directory = try TemporaryDirectory("audit-missing")
        try directory.write("in.csv", CSVFixtures.families(count: 3))
        let provisioned = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        let synced = try await run(["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        try #require(synced.status == 0, "\(synced.stderr)")
        let ids = try StoreInspector(path: directory.file("s.sqlite")).strings("SELECT id FROM families ORDER BY source_line")
        return (directory, ids)
    }

    /// As the Console does: a records/modify delete of each family record.
    func deleteInCloudKit(_ ids: [String], _ fixture: EmulatorFixture) async throws {
        let operations = ids.map { CloudKitOperation(.forceDelete, CloudKitRecord(recordName: $0, recordType: RecordMapping.familyType, fields: [:])) }
        let results = try await fixture.client().modify(operations)
        for result in results { if case .failure(let error) = result { Issue.record("delete refused: \(error)") } }
        let left = Set(await fixture.emulator.records(container: container).map(\.recordName))
        try #require(left.isDisjoint(with: ids))
    }

    @Test func liveAuditCountsDeletedFamiliesThenRepairAndResyncBringThemBack() async throws {
        var options = CloudKitEmulator.Options()
        options.indexLag = 60
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let (directory, ids) = try await uploaded(fixture)

        // The index has not caught up with any record: none is reported gone.
        let fresh = try await run(["audit", "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory)
        #expect(fresh.status == 0, "\(fresh.stdout) \(fresh.stderr)")
        #expect(try report(fresh).missing == nil, "\(fresh.stdout)")

        let gone = Array(ids.prefix(2))
        try await deleteInCloudKit(gone, fixture)
        let audited = try await run(["audit", "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory)
        #expect(audited.status == 1, "an error finding fails the run: \(audited.stderr)")
        let found = try report(audited)
        #expect(found.counts["missing-remote"] == 2)
        let missing = try #require(found.missing)
        #expect(missing.count == 2)
        #expect(Set(missing.families.map(\.id)) == Set(gone))
        // Nothing left remotely: the container is checked first, the repair named after it.
        #expect(missing.action.hasPrefix("No family at all"), "\(missing.action)")
        #expect(missing.action.contains("tribeboard audit --store \(directory.file("s.sqlite")) --container ")
                && missing.action.contains(" --repair --apply --out DIR"), "\(missing.action)")

        // doctor family on one of them shows the same command, no SQL.
        struct FamilyReport: Decodable {
            struct Check: Decodable { let id: String; let status: String; let action: String? }
            let findings: [Check]
        }
        let doctor = try await run(["doctor", "family", gone[0], "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory)
        let remoteCheck = try #require(try JSONDecoder().decode(FamilyReport.self, from: Data(doctor.stdout.utf8)).findings
            .first { $0.id == "family.remote" }, "\(doctor.stdout) \(doctor.stderr)")
        #expect(remoteCheck.status == "failure")
        #expect(remoteCheck.action?.contains("tribeboard resync --store \(directory.file("s.sqlite")) --reupload \(gone[0])") == true, "\(remoteCheck)")
        #expect(remoteCheck.action?.contains("UPDATE") == false)

        // The text report says the same to an operator.
        let text = try await run(["audit", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        #expect(text.stdout.contains("families marked uploaded but gone from CloudKit [missing-remote]"), "\(text.stdout)")

        let proposed = try await run(["audit", "--store", "s.sqlite", "--json", "--repair"] + fixture.remoteArguments, in: directory)
        #expect(try report(proposed).repair?.reupload.sorted() == gone.sorted())
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families WHERE needs_sync = 1") == 0,
                "a proposal changes nothing")

        let repaired = try await run(["audit", "--store", "s.sqlite", "--json", "--repair", "--apply", "--out", "fix"] + fixture.remoteArguments,
                                     in: directory)
        #expect(repaired.status == 1, "the run reports what it found before repairing: \(repaired.stderr)")
        let repair = try #require(try report(repaired).repair)
        #expect(repair.applied)
        #expect(repair.reupload.sorted() == gone.sorted())
        #expect(try StoreInspector(path: directory.file("s.sqlite")).strings("SELECT id FROM families WHERE needs_sync = 1 ORDER BY id")
                == gone.sorted())

        let resynced = try await run(["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        #expect(resynced.status == 0, "\(resynced.stderr)")
        let remote = Set(await fixture.emulator.records(container: container).map(\.recordName))
        #expect(remote.isSuperset(of: ids))

        let clean = try await run(["audit", "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory)
        #expect(clean.status == 0, "\(clean.stdout) \(clean.stderr)")
        #expect(try report(clean).errors == 0)
    }

    @Test func snapshotAuditCountsOnlyFamiliesUploadedWellBeforeTheSnapshot() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let (directory, ids) = try await uploaded(fixture)
        try await deleteInCloudKit([ids[0], ids[1]], fixture)
        let export = try await run(["audit", "--store", "s.sqlite", "--json", "--fail-on", "none", "--export-remote", "remote.jsonl"]
                                   + fixture.remoteArguments, in: directory)
        #expect(export.status == 0, "\(export.stderr)")

        // Uploaded a moment before the snapshot was written: a lagging query could have missed them.
        let recent = try await run(["audit", "--store", "s.sqlite", "--json", "--remote-snapshot", "remote.jsonl"], in: directory)
        #expect(recent.status == 0, "\(recent.stdout)")
        #expect(try report(recent).missing == nil)

        // One of the two was uploaded two hours before: that one is counted, with its command.
        let twoHoursAgo = Timestamp(Date().addingTimeInterval(-7200)).text
        let edit = try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"),
                                                              "UPDATE families SET last_sync_date = '\(twoHoursAgo)' WHERE id = '\(ids[0])'"])
        try #require(edit.status == 0, "\(edit.stderr)")
        let old = try await run(["audit", "--store", "s.sqlite", "--json", "--remote-snapshot", "remote.jsonl"], in: directory)
        #expect(old.status == 1)
        let missing = try #require(try report(old).missing)
        #expect(missing.count == 1)
        #expect(missing.families.map(\.id) == [ids[0]])
        #expect(missing.action.contains("tribeboard resync --store \(directory.file("s.sqlite")) --reupload \(ids[0])"))
        #expect(missing.message.contains("1 more"), "the recent one is named as not confirmed: \(missing.message)")

        let marked = try await run(["resync", "--store", "s.sqlite", "--reupload", ids[0]], in: directory)
        #expect(marked.status == 0, "\(marked.stderr)")
        let resynced = try await run(["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        #expect(resynced.status == 0, "\(resynced.stderr)")
        #expect(await fixture.emulator.records(container: container).contains { $0.recordName == ids[0] })
    }
}
