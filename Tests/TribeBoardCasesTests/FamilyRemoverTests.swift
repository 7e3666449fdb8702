import Foundation
import Testing
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCases

/// `remove` in-process on a provisioned store with no remote: families that never went up to
/// CloudKit can go, a dry run changes nothing, a family nobody has is named as not found.
@Suite("Cases: removing families from the store")
struct FamilyRemoverTests {
    static func store() throws -> (ProvisionWorkspace, codes: [String: String]) {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name\nAmes\nBrook\n")
        return (workspace, try workspace.codesByName())
    }

    static func remove(_ families: [String], in workspace: ProvisionWorkspace, apply: Bool) async throws -> RemoveReport {
        var request = RemoveRequest(storePath: workspace.storePath, families: families)
        request.apply = apply
        return try await FamilyRemover(request: request, logger: TestLogger.quiet).run()
    }

    @Test func aDryRunPlansTheRemovalAndChangesNothing() async throws {
        let (workspace, codes) = try Self.store()
        let report = try await Self.remove([try #require(codes["Ames"])], in: workspace, apply: false)
        #expect(!report.applied && report.planned == 1 && report.removed == 0)
        #expect(report.families.map(\.familyName) == ["Ames"])
        #expect(try workspace.count("families") == 2)
    }

    @Test func aFamilyThatNeverWentUpIsRemovedWithoutARemote() async throws {
        let (workspace, codes) = try Self.store()
        let report = try await Self.remove([try #require(codes["Brook"])], in: workspace, apply: true)
        #expect(report.applied && report.removed == 1 && !report.incomplete, "\(report.families)")
        #expect(try workspace.codesByName().keys.sorted() == ["Ames"])
    }

    /// One of several: not found is that family's outcome, the others go; alone, it is the error.
    @Test func aFamilyNobodyHasIsNotFound() async throws {
        let (workspace, codes) = try Self.store()
        let report = try await Self.remove(["NOSUCH", try #require(codes["Ames"])], in: workspace, apply: true)
        #expect(report.notFound == 1 && report.removed == 1 && report.incomplete)
        let alone = await #expect(throws: CaseError.self) { try await Self.remove(["NOSUCH"], in: workspace, apply: true) }
        guard case .noSuchFamily("NOSUCH", _) = alone else { Issue.record("\(String(describing: alone))"); return }
    }
}
