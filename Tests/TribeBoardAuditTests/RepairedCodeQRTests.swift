import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardDomain
import TribeBoardQR
import TribeBoardStoreFixtures
import TribeBoardTestSupport

/// A code the audit's repair changed reaches the family's card: provision's re-run rewrites the
/// stale PNG (the re-run's other cases are ProvisionRerunQRTests').
@Suite("Audit: a repaired code's QR code")
struct RepairedCodeQRTests {
    func pngs(_ workspace: ProvisionWorkspace, _ families: [(id: String, name: String, code: String)]) -> [String] {
        families.map { "\(workspace.outputPath)/\(QRCodeFiles.relativePath(for: FamilyID(rawValue: $0.id)))" }
    }

    @Test("after an audit repair changed a code, the re-run rewrites that family's PNG (decoded by zbarimg)")
    func rerunAfterRepair() async throws {
        var workspace = try AuditWorkspace(families: 3)
        let before = try workspace.families()
        // An older CloudKit family holds family 2's code: the repair gives family 2 a new one.
        try workspace.snapshot.append(SnapshotFixture.family(code: before[1].code, createdAt: Date(timeIntervalSince1970: 1_600_000_000)))
        _ = try await workspace.audit { $0.repair = .apply(outputDirectory: workspace.provision.folder.file("repair")) }
        let after = try workspace.families()
        try #require(after[1].code != before[1].code, "the repair changed the code")
        #expect(try QRReader.decode(pngs(workspace.provision, after)) == before.map(\.code), "the old PNG is stale before the re-run")

        let report = try workspace.provision.run(CSVFixtures.families(count: 3))
        #expect(report.existing == 3)
        #expect(report.qrCodesWritten == 1, "only the stale PNG is rewritten")
        #expect(try QRReader.decode(pngs(workspace.provision, after)) == after.map(\.code))
        #expect(ProvisionWorkspace.permissions(of: pngs(workspace.provision, after)[1]) == 0o600)
    }
}
