import Foundation
import Logging
import Testing
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardDoctor
@testable import TribeBoardDomain

/// "Has an admin" is the app's rule: an active parent_admin. A family whose only admin was
/// invited without a hash waits for that person; one with neither has no admin.
@Suite("Doctor: a family's admin as the app judges it")
struct DoctorAdminStateTests {
    static let logger = Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() }

    /// Six provisioned families (CSVFixtures: rows 3 and 6 carry a hash, so their admin is
    /// active); row 1 loses its memberships, row 3's admin is marked invited (with its hash).
    static func workspace() throws -> (AuditWorkspace, [String]) {
        let workspace = try AuditWorkspace(families: 6)
        let ids = try workspace.families().map(\.id)
        try workspace.edit("DELETE FROM memberships WHERE family_id = ?", [ids[0]])
        try workspace.edit("UPDATE memberships SET status = 'invited' WHERE family_id = ?", [ids[2]])
        return (workspace, ids)
    }

    func request(_ workspace: AuditWorkspace) -> DoctorRequest {
        var request = DoctorRequest(storePath: workspace.provision.storePath, remote: .success(CloudKitConfiguration()))
        request.sampleSize = 10
        return request
    }

    @Test func awaitingFamiliesAreCountedApartFromThoseWithoutAnAdmin() async throws {
        let (workspace, ids) = try Self.workspace()
        let report = await Doctor(request: request(workspace), logger: Self.logger).run()
        let without = try #require(report.checks.first { $0.id == .creationsParentAdmin })
        #expect(without.status == .warning && without.count == 2)
        #expect(Set(without.sample.map(\.familyID)) == [ids[0], ids[2]], "an invited admin with a hash is no one's admin")
        let awaiting = try #require(report.checks.first { $0.id == .creationsAwaitingAdmin })
        #expect(awaiting.status == .ok && awaiting.count == 3)
        #expect(Set(awaiting.sample.map(\.familyID)) == [ids[1], ids[3], ids[4]])
    }

    @Test func doctorFamilyNamesEachState() async throws {
        let (workspace, ids) = try Self.workspace()
        var states: [AdminState] = []
        var statuses: [DoctorSeverity?] = []
        for id in ids {
            let report = await FamilyDoctor(request: request(workspace), query: id, logger: Self.logger).run()
            states.append(try #require(report.family?.adminState))
            statuses.append(report.findings.first { $0.id == .familyAdmin }?.status)
        }
        #expect(states == [.none, .awaitingInvitedAdmin, .none, .awaitingInvitedAdmin, .awaitingInvitedAdmin, .active])
        #expect(statuses == [.warning, .ok, .warning, .ok, .ok, .ok])
    }
}
