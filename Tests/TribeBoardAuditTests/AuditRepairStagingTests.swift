import Foundation
import GRDB
import Testing
import TribeBoardStoreFixtures
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
                                        outputDirectory: workspace.provision.folder.file("fix"), logger: TestLogger.quiet)
        let store = try TribeBoardStore.openOrCreate(at: workspace.provision.storePath).store
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

    /// repairs.csv as a spreadsheet reads it: the rows after the header, by family id.
    static func manifestRows(_ out: String) throws -> [String: [String]] {
        let text = try String(contentsOfFile: "\(out)/repairs.csv", encoding: .utf8)
        let lines = text.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.first == CodeRepairApplier.manifestHeader)
        return Dictionary(lines.dropFirst().map { ($0[0], $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The repair's error, if the audit stopped on one.
    static func repairError(_ workspace: AuditWorkspace, out: String) async throws -> CodeRepairError? {
        do {
            _ = try await workspace.audit { $0.repair = .apply(outputDirectory: out) }
            return nil
        } catch AuditError.repair(let error) {
            return error
        }
    }

    @Test("a folder where repairs.csv goes: the committed repair ends non-zero, every run, until repairs.csv is written")
    func repairsCSVBlockedByAFolder() async throws {
        let (workspace, families) = try AuditRepairTests.duplicated()
        let out = workspace.provision.folder.file("fix")
        try FileManager.default.createDirectory(atPath: "\(out)/repairs.csv", withIntermediateDirectories: true)
        guard case .incomplete? = try await Self.repairError(workspace, out: out) else {
            Issue.record("the first run must say the repair is in the store but not finished")
            return
        }
        // The rerun has nothing left to change in the store: it must still not say it is done.
        guard case .incomplete? = try await Self.repairError(workspace, out: out) else {
            Issue.record("the rerun ended as if repairs.csv were written")
            return
        }
        try FileManager.default.removeItem(atPath: "\(out)/repairs.csv")
        let finished = try await workspace.audit { $0.repair = .apply(outputDirectory: out) }
        #expect(finished.repair?.applied == true)
        let rows = try Self.manifestRows(out)
        let codes = try workspace.provision.inspector().rows("SELECT id, code FROM families")
        // Family 2 held family 1's code (duplicated()), family 3 a CloudKit family's.
        for (family, oldCode) in [(families[1], families[0].code), (families[2], families[2].code)] {
            let code = codes.first { $0["id"] == family.id }?["code"]
            #expect(rows[family.id]?[2] == oldCode && rows[family.id]?[3] == code, "\(rows)")
            #expect(try QRReader.decode(["\(out)/qr/\(family.id).png"]) == [try #require(code)])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix(RepairStaging.prefix) }.isEmpty)
    }

    @Test("killed after its PNGs were renamed into place but before repairs.csv: the rerun writes repairs.csv")
    func killedBeforeTheManifest() async throws {
        let (workspace, families) = try AuditRepairTests.duplicated()
        let out = workspace.provision.folder.file("fix")
        _ = try await workspace.audit { $0.repair = .apply(outputDirectory: out) }
        // As the killed run left it: the store committed, the PNGs in qr/, its staging folder
        // with only the list of its families, no repairs.csv.
        try FileManager.default.removeItem(atPath: "\(out)/repairs.csv")
        let dead = try ProcessRunner.start("/bin/true", [])
        _ = dead.wait()
        let staging = "\(out)/\(RepairStaging.prefix)\(dead.pid)"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        try "\(families[1].id)\n\(families[2].id)\n".write(toFile: "\(staging)/\(RepairStaging.familiesName)", atomically: false, encoding: .utf8)

        let rerun = try await workspace.audit { $0.repair = .apply(outputDirectory: out) }
        #expect(rerun.repair?.applied == true && rerun.repair?.manifest == "\(out)/repairs.csv")
        #expect(Set(try Self.manifestRows(out).keys) == [families[1].id, families[2].id])
        #expect(!FileManager.default.fileExists(atPath: staging))
    }
}

