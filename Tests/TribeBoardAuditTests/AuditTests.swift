import Foundation
import GRDB
import Testing
import TribeBoardCloudFixtures
import TribeBoardStoreFixtures
import TribeBoardSupport
import TribeBoardTestSupport
@testable import TribeBoardAudit
@testable import TribeBoardDomain

/// A provisioned store, a snapshot beside it, and audits of the two.
@Suite("Audit: findings")
struct AuditFindingTests {
    @Test("an empty store and an empty snapshot are clean")
    func emptyStore() async throws {
        let workspace = try AuditWorkspace(families: 0)
        let report = try await workspace.audit()
        #expect(report.findings.isEmpty)
        #expect(report.scanned.localFamilies == 0)
        #expect(!report.reaches(.warning))
    }

    @Test("a provisioned store whose families are all in CloudKit is clean")
    func syncedStoreIsClean() async throws {
        var workspace = try AuditWorkspace(families: 5)
        for family in try workspace.families() { try workspace.snapshot.append(SnapshotFixture.family(id: family.id, code: family.code, name: family.name)) }
        let report = try await workspace.audit()
        #expect(report.findings.isEmpty)
        #expect(report.scanned.remoteRecords["Family"] == 5)
    }

    @Test("every planted problem is found once, and nothing else")
    func plantedProblems() async throws {
        var workspace = try AuditWorkspace(families: 8)
        let families = try workspace.families()
        // The store's unique index stops exact duplicates; a hand-edited or restored store may lack it.
        try workspace.edit("DROP INDEX families_code")
        try workspace.edit("UPDATE families SET code = ? WHERE id = ?", [families[0].code, families[1].id])
        try workspace.edit("UPDATE families SET code = 'ab 12' WHERE id = ?", [families[2].id])
        try workspace.edit("UPDATE families SET created_at = '2026-01-01T00:00:00.000Z' WHERE id = ?", [families[3].id])
        try workspace.edit("DELETE FROM memberships WHERE family_id = ?", [families[4].id])
        // Synced copies of families 5 and 6: not problems.
        try workspace.snapshot.append(SnapshotFixture.family(id: families[5].id, code: families[5].code))
        try workspace.snapshot.append(SnapshotFixture.family(id: families[6].id, code: families[6].code))
        try workspace.snapshot.append(SnapshotFixture.family(code: families[5].code, name: "Other Family"))  // local vs remote
        try workspace.snapshot.append(SnapshotFixture.family(code: families[7].code.lowercased()))         // case-only twin
        let malformedLine = workspace.snapshot.appendRaw(#"{"recordName": "broken", "fields": "#)
        try workspace.snapshot.append(SnapshotFixture.family(code: "ZZZ234"))                             // remote vs remote
        try workspace.snapshot.append(SnapshotFixture.family(code: "ZZZ234"))
        try workspace.snapshot.append(SnapshotFixture.family(code: "LEG234", type: "CKFamily"))

        let report = try await workspace.audit()

        #expect(report.categories == ["duplicate-local": 1, "duplicate-local-remote": 1, "duplicate-remote": 1, "case-only-twins": 1,
                                      "invalid-format": 2, "unreadable-snapshot-line": 1, "no-parent-admin": 1, "stale-pending": 1,
                                      "remote-only": 1, "legacy-record": 1])
        let local = try #require(report.findings(.duplicateLocal).first)
        #expect(Set(local.families.map(\.id)) == [families[0].id, families[1].id])
        let mixed = try #require(report.findings(.duplicateLocalRemote).first)
        #expect(mixed.families.map(\.location) == [.both, .remote] || mixed.families.map(\.location) == [.remote, .both])
        #expect(report.findings(.unreadableSnapshotLine).first?.message.contains("line \(malformedLine)") == true)
        #expect(report.findings(.remoteOnly).first?.count == 4)  // ZZZ234 twice, the lower-case twin, the other family
        #expect(report.findings(.stalePending).first?.families.map(\.id) == [families[3].id])
        #expect(report.findings(.noParentAdmin).first?.families.map(\.id) == [families[4].id])
        #expect(report.errors == 7)
        #expect(report.reaches(.error))
    }

    @Test("codes are masked in findings unless asked for")
    func masking() async throws {
        var workspace = try AuditWorkspace(families: 1)
        let family = try #require(workspace.families().first)
        try workspace.snapshot.append(SnapshotFixture.family(code: family.code))
        let masked = try await workspace.audit()
        #expect(masked.findings(.duplicateLocalRemote).first?.code == FamilyCode.mask(family.code))
        let shown = try await workspace.audit { $0.showCodes = true }
        #expect(shown.findings(.duplicateLocalRemote).first?.code == family.code)
    }

    @Test("remote-only families are one finding with a sample; --all lists every one")
    func aggregation() async throws {
        var workspace = try AuditWorkspace(families: 0)
        for index in 0..<25 { try workspace.snapshot.append(SnapshotFixture.family(code: "RMT\(100 + index)")) }
        let sampled = try await workspace.audit()
        #expect(sampled.findings.count == 1)
        #expect(sampled.findings.first?.count == 25)
        #expect(sampled.findings.first?.families.count == 10)
        let all = try await workspace.audit { $0.listAll = true }
        #expect(all.findings.first?.families.count == 25)
    }

    @Test("a snapshot that cannot be opened stops the audit with its path")
    func missingSnapshot() async throws {
        let workspace = try AuditWorkspace(families: 1)
        let request = AuditRequest(storePath: workspace.provision.storePath, remote: .snapshot(path: "/nonexistent/remote.jsonl"))
        await #expect(throws: AuditError.self) { try await AuditWorkspace.run(request) }
    }

    @Test("a snapshot with CRLF line ends, blank lines and no final newline is read whole")
    func snapshotLineEnds() async throws {
        let workspace = try AuditWorkspace(families: 0)
        var snapshot = SnapshotFixture()
        try snapshot.append(SnapshotFixture.family(code: "CRL234"))
        try snapshot.append(SnapshotFixture.family(code: "CRL234"))
        let text = snapshot.lines.joined(separator: "\r\n\r\n")
        try text.write(toFile: workspace.snapshotPath, atomically: true, encoding: .utf8)
        let request = AuditRequest(storePath: workspace.provision.storePath, remote: .snapshot(path: workspace.snapshotPath))
        let report = try await AuditWorkspace.run(request)
        #expect(report.categories["duplicate-remote"] == 1)
        #expect(report.findings(.unreadableSnapshotLine).isEmpty)
    }

    @Test("a family awaiting its invited admin is counted, not a finding; one with an invited admin holding a hash has no admin")
    func awaitingInvitedAdmin() async throws {
        let workspace = try AuditWorkspace(families: 6)  // rows 3 and 6 carry a hash: active admins
        let ids = try workspace.families().map(\.id)
        try workspace.edit("DELETE FROM memberships WHERE family_id = ?", [ids[0]])
        try workspace.edit("UPDATE memberships SET status = 'invited' WHERE family_id = ?", [ids[2]])
        let report = try await workspace.audit(remote: false)
        #expect(report.awaitingInvitedAdmin == 3)
        #expect(Set(report.findings(.noParentAdmin).flatMap { $0.families.map(\.id) }) == [ids[0], ids[2]])
    }
}

@Suite("Audit: repair")
struct AuditRepairTests {
    /// Families 0 and 1 share a code locally; a CloudKit family older than family 2 holds its code.
    static func duplicated() throws -> (AuditWorkspace, [(id: String, name: String, code: String)]) {
        var workspace = try AuditWorkspace(families: 4)
        let families = try workspace.families()
        try workspace.edit("DROP INDEX families_code")
        try workspace.edit("UPDATE families SET code = ?, created_at = '2026-11-01T00:00:00.000Z' WHERE id = ?", [families[0].code, families[1].id])
        try workspace.edit("UPDATE families SET created_at = '2026-10-01T00:00:00.000Z' WHERE id = ?", [families[0].id])
        try workspace.snapshot.append(SnapshotFixture.family(code: families[2].code, createdAt: Date(timeIntervalSince1970: 1_700_000_000)))
        return (workspace, families)
    }

    @Test("--repair proposes new codes for the newer local families and changes nothing")
    func propose() async throws {
        let (workspace, families) = try Self.duplicated()
        let report = try await workspace.audit { $0.repair = .propose }
        let repair = try #require(report.repair)
        #expect(!repair.applied)
        #expect(Set(repair.changes.map(\.familyId)) == [families[1].id, families[2].id])
        #expect(repair.changes.first { $0.familyId == families[1].id }?.keptBy == families[0].id)
        #expect(try workspace.provision.inspector().count("SELECT COUNT(*) FROM families WHERE code = '\(families[0].code)'") == 2)
    }

    @Test("--repair --apply gives new codes and QR codes, records them, marks them for resync, and re-audits clean")
    func applyThenReaudit() async throws {
        let (workspace, families) = try Self.duplicated()
        try workspace.edit("UPDATE families SET needs_sync = 0")
        let out = workspace.provision.folder.file("repair-out")
        let report = try await workspace.audit { $0.repair = .apply(outputDirectory: out) }
        #expect(report.repair?.applied == true)

        let inspector = try workspace.provision.inspector()
        let codes = Dictionary(uniqueKeysWithValues: try inspector.rows("SELECT id, code, needs_sync, code_verified_remotely_at FROM families").map { ($0["id"] ?? "", $0) })
        #expect(codes[families[0].id]?["code"] == families[0].code)  // the oldest keeps its code
        #expect(codes[families[1].id]?["code"] != families[0].code)
        #expect(codes[families[2].id]?["code"] != families[2].code)
        #expect(codes[families[1].id]?["needs_sync"] == "1")
        #expect(codes[families[1].id]?["code_verified_remotely_at"] == nil)
        #expect(codes[families[0].id]?["needs_sync"] == "0")
        #expect(try inspector.count("SELECT COUNT(*) FROM code_repairs") == 2)

        let manifest = try String(contentsOfFile: "\(out)/repairs.csv", encoding: .utf8)
        let newCode = try #require(codes[families[1].id]?["code"])
        #expect(manifest.contains("\(families[1].id),\(families[1].name),\(families[0].code),\(newCode),\(families[0].id),duplicate-local,qr/\(families[1].id).png"))
        #expect(try QRReader.decode(["\(out)/qr/\(families[1].id).png"]) == [newCode])
        #expect(ProvisionWorkspace.permissions(of: "\(out)/qr") == 0o700)

        let again = try await workspace.audit()
        #expect(again.errors == 0, "\(again.findings)")
    }

    @Test("a synced family that got a new code is not a duplicate while its CloudKit copy waits for resync")
    func awaitingResync() async throws {
        var workspace = try AuditWorkspace(families: 1)
        let family = try #require(workspace.families().first)
        try workspace.snapshot.append(SnapshotFixture.family(id: family.id, code: family.code))
        try workspace.snapshot.append(SnapshotFixture.family(code: family.code, createdAt: Date(timeIntervalSince1970: 1_600_000_000)))
        let first = try await workspace.audit { $0.repair = .apply(outputDirectory: workspace.provision.folder.file("fix")) }
        #expect(first.findings(.duplicateLocalRemote).count == 1)
        #expect(first.repair?.changes.map(\.familyId) == [family.id])
        let again = try await workspace.audit()
        #expect(again.errors == 0, "\(again.findings)")
        #expect(again.awaitingResync == 1)
    }

    @Test("a family only CloudKit holds is listed for a fix in the app, never changed")
    func remoteOnlyNewerIsManual() async throws {
        var workspace = try AuditWorkspace(families: 1)
        let family = try #require(workspace.families().first)
        try workspace.snapshot.append(SnapshotFixture.family(code: family.code, createdAt: Date().addingTimeInterval(3600)))
        let report = try await workspace.audit { $0.repair = .apply(outputDirectory: workspace.provision.folder.file("fix")) }
        #expect(report.repair?.changes.isEmpty == true)
        #expect(report.repair?.manual.count == 1)
        #expect(try workspace.provision.inspector().strings("SELECT code FROM families") == [family.code])
    }

    @Test("a repair that cannot write its output changes nothing in the store")
    func failedApplyChangesNothing() async throws {
        let (workspace, families) = try Self.duplicated()
        let blocked = workspace.provision.folder.file("blocked")
        try "a file, not a folder".write(toFile: blocked, atomically: true, encoding: .utf8)
        await #expect(throws: AuditError.self) { try await workspace.audit { $0.repair = .apply(outputDirectory: blocked) } }
        #expect(try workspace.provision.inspector().count("SELECT COUNT(*) FROM families WHERE code = '\(families[0].code)'") == 2)
    }
}
