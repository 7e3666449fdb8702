import Foundation
import GRDB
import Testing
import TribeBoardTestSupport
@testable import TribeBoardAudit
@testable import TribeBoardStore

/// The repair's steps one at a time: what its short transaction re-checks, and what the next run
/// does with a staging folder a killed run left.
@Suite("Audit: repair staging")
struct AuditRepairStagingTests {
    @Test("a new code another writer took after it was chosen is not committed; that family says why")
    func codeTakenBetweenChoiceAndCommit() async throws {
        let (workspace, families) = try AuditRepairTests.duplicated()
        let plan = try #require(try await workspace.audit { $0.repair = .propose }.repair)
        let applier = CodeRepairApplier(request: AuditRequest(storePath: workspace.provision.storePath),
                                        outputDirectory: workspace.provision.folder.file("fix"), logger: ProvisionWorkspace.quietLogger)
        let store = try TribeBoardStore.open(at: workspace.provision.storePath)
        let chosen = try applier.choose(plan.changes, store: store, avoiding: [])
        let taken = try #require(chosen.first { $0.familyId == families[1].id }?.assignedCode)
        try workspace.edit("UPDATE families SET code = ? WHERE id = ?", [taken, families[3].id])

        let committed = try applier.commit(chosen, store: store)
        let skipped = try #require(committed.first { $0.familyId == families[1].id })
        #expect(skipped.assignedCode == nil && skipped.skipped?.contains("taken meanwhile") == true)
        #expect(committed.first { $0.familyId == families[2].id }?.assignedCode != nil, "the other change still goes in")
        let inspector = try workspace.provision.inspector()
        #expect(try inspector.strings("SELECT code FROM families WHERE id = '\(families[1].id)'") == [families[0].code])
        #expect(try inspector.strings("SELECT family_id FROM code_repairs") == [families[2].id])
    }

    @Test("a killed run's staging folder: committed codes get their QR code, the rest is removed")
    func leftoverStagingIsFinished() async throws {
        let (workspace, families) = try AuditRepairTests.duplicated()
        let out = workspace.provision.folder.file("fix")
        _ = try await workspace.audit { $0.repair = .apply(outputDirectory: out) }
        // As a run killed after its commit leaves it: one committed family's PNG still staged
        // (with stale bytes), and the PNG of a family whose new code never committed.
        let dead = try ProcessRunner.start("/bin/true", [])
        _ = dead.wait()
        let staging = "\(out)/\(RepairStaging.prefix)\(dead.pid)"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: "\(staging)/\(families[1].id).png"))
        try Data("never committed".utf8).write(to: URL(fileURLWithPath: "\(staging)/\(families[3].id).png"))
        try FileManager.default.removeItem(atPath: "\(out)/qr/\(families[1].id).png")

        _ = try await workspace.audit { $0.repair = .apply(outputDirectory: out) }
        let code = try workspace.provision.inspector().strings("SELECT code FROM families WHERE id = '\(families[1].id)'")
        #expect(try QRReader.decode(["\(out)/qr/\(families[1].id).png"]) == code)
        #expect(!FileManager.default.fileExists(atPath: "\(out)/qr/\(families[3].id).png"))
        #expect(!FileManager.default.fileExists(atPath: staging))
    }
}
