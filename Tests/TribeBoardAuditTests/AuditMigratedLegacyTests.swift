import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardRemote

/// After `migrate legacy-types` without `--delete-source`, each legacy family and its copy hold
/// the same code: one family, not a duplicate. Real duplicates beside them are still found.
@Suite("Audit: legacy records already migrated")
struct AuditMigratedLegacyTests {
    static let old = Date(timeIntervalSince1970: 1_600_000_000)

    static func copyName(_ legacy: String) -> String { (try? LegacyCopyName.of(legacy)) ?? "underivable \(legacy)" }

    @Test("a legacy family beside its copy is one family; the finding counts it migrated")
    func sourceAndCopyAreOneFamily() async throws {
        var workspace = try AuditWorkspace(families: 0)
        let legacy = "A0000000-0000-4000-8000-000000000001"
        try workspace.snapshot.append(SnapshotFixture.family(id: legacy, code: "MIG234", createdAt: Self.old, type: "CKFamily"))
        try workspace.snapshot.append(SnapshotFixture.family(id: Self.copyName(legacy), code: "MIG234", createdAt: Self.old))
        let report = try await workspace.audit()
        #expect(report.findings(.duplicateRemote).isEmpty)
        let finding = try #require(report.findings(.legacyRecord).first)
        #expect(finding.count == 1 && finding.migrated == 1)
        #expect(finding.action.contains("--delete-source"))
    }

    @Test("a legacy family whose copy is in the store (and not yet read back) is one family too")
    func copyKnownLocally() async throws {
        var workspace = try AuditWorkspace(families: 1)
        let family = try #require(try workspace.families().first)
        let legacy = "A0000000-0000-4000-8000-000000000009", copy = Self.copyName(legacy)
        // What migrate's store import writes: the copy's name as the family's id.
        try workspace.edit("""
            PRAGMA defer_foreign_keys = ON;
            UPDATE memberships SET family_id = '\(copy)' WHERE family_id = '\(family.id)';
            UPDATE families SET id = '\(copy)' WHERE id = '\(family.id)';
            """)
        try workspace.snapshot.append(SnapshotFixture.family(id: legacy, code: family.code, createdAt: Self.old, type: "CKFamily"))
        let report = try await workspace.audit()
        #expect(report.findings(.duplicateLocalRemote).isEmpty, "\(report.findings.map(\.message))")
        #expect(report.findings(.legacyRecord).first?.migrated == 1)
    }

    @Test("a real duplicate and a re-coded family's old code are still errors")
    func realDuplicatesRemain() async throws {
        var workspace = try AuditWorkspace(families: 0)
        let migrated = "A0000000-0000-4000-8000-000000000001", recoded = "A0000000-0000-4000-8000-000000000002"
        let other = "A0000000-0000-4000-8000-000000000003"
        try workspace.snapshot.append(SnapshotFixture.family(id: migrated, code: "MIG234", createdAt: Self.old, type: "CKFamily"))
        try workspace.snapshot.append(SnapshotFixture.family(id: Self.copyName(migrated), code: "MIG234", createdAt: Self.old))
        // Re-coded by migrate: its copy has a new code, and a newer current family holds the old one.
        try workspace.snapshot.append(SnapshotFixture.family(id: recoded, code: "OLD567", createdAt: Self.old, type: "CKFamily"))
        try workspace.snapshot.append(SnapshotFixture.family(id: Self.copyName(recoded), code: "NEW567", createdAt: Self.old))
        try workspace.snapshot.append(SnapshotFixture.family(code: "OLD567"))
        // Not migrated at all, holding a current family's code.
        try workspace.snapshot.append(SnapshotFixture.family(id: other, code: "DUP890", createdAt: Self.old, type: "CKFamily"))
        try workspace.snapshot.append(SnapshotFixture.family(code: "DUP890"))
        let report = try await workspace.audit { $0.showCodes = true }
        let codes = Set(report.findings(.duplicateRemote).compactMap(\.code))
        #expect(codes == ["OLD567", "DUP890"])
        let finding = try #require(report.findings(.legacyRecord).first)
        #expect(finding.count == 3 && finding.migrated == 2)
        #expect(!finding.action.contains("--delete-source"), "one legacy family has no copy yet")
    }

    /// `migrate legacy-types --apply` gave a family whose code breaks the format a new one: its
    /// source still holds the old code, which nobody is to change any more.
    @Test("a legacy family re-coded by the migration is no invalid-format finding")
    func recodedForTheFormatIsNoFinding() async throws {
        var workspace = try AuditWorkspace(families: 0)
        let migrated = "A0000000-0000-4000-8000-000000000011", notYet = "A0000000-0000-4000-8000-000000000012"
        try workspace.snapshot.append(SnapshotFixture.family(id: migrated, code: "ab-234", createdAt: Self.old, type: "CKFamily"))
        try workspace.snapshot.append(SnapshotFixture.family(id: Self.copyName(migrated), code: "NEW234", createdAt: Self.old))
        try workspace.snapshot.append(SnapshotFixture.family(id: notYet, code: "cd-567", createdAt: Self.old, type: "CKFamily"))
        let report = try await workspace.audit()
        #expect(report.findings(.invalidFormat).map { $0.families.map(\.id) } == [[notYet]],
                "only the legacy family without its copy: \(report.findings.map(\.message))")
        #expect(report.findings(.legacyRecord).first?.migrated == 1)
    }
}
