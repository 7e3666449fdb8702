import Foundation
import Logging
import Testing
import TribeBoardDomain
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardDoctor

/// `doctor family`: one timeline order for every source of times, and a caller found by their
/// own name (the family's admin).
@Suite("Doctor family: timeline order and admin names")
struct DoctorFamilyTimelineTests {
    static let logger = Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() }

    @Test func theTimelineIsInTimeOrderWhateverWroteTheTimes() {
        let events = [
            TimelineEvent(at: Timestamp(text: "2026-11-26T10:57:35.941Z"), source: "creation_log", what: "941"),
            TimelineEvent(at: Timestamp(text: "2026-11-26T10:57:35.938Z"), source: "families", what: "938"),
            TimelineEvent(at: Timestamp(text: "2026-11-26T10:57:35Z"), source: "cloudkit", what: "whole second"),
            TimelineEvent(at: Timestamp(text: "2026-11-26T11:57:35.500+01:00"), source: "cloudkit", what: "offset"),
            TimelineEvent(at: nil, source: "sync_state", what: "never attempted"),
            TimelineEvent(at: Timestamp(text: "2026-11-26T10:57:35.938Z"), source: "memberships", what: "938 too"),
        ]
        #expect(TimelineEvent.chronological(events).map(\.what)
                == ["never attempted", "whole second", "offset", "938", "938 too", "941"])
    }

    static func store() throws -> ProvisionWorkspace {
        let workspace = try ProvisionWorkspace()
        _ = try workspace.run("""
            external_id,family_name,admin_display_name
            A-1,Tran,Minh Nguyễn
            A-2,Nguyen,Lan Pham
            A-3,Other,Someone Else
            """ + "\n")
        return workspace
    }

    func lookUp(_ query: String, in workspace: ProvisionWorkspace) async -> FamilyReport {
        let request = DoctorRequest(storePath: workspace.storePath, remote: .success(CloudKitConfiguration()))
        return await FamilyDoctor(request: request, query: query, logger: Self.logger).run()
    }

    @Test func aCallerGivingTheirOwnNameFindsTheirFamily() async throws {
        let workspace = try Self.store()
        let caller = await lookUp("minh nguyen", in: workspace)
        #expect(caller.family?.name == "Tran", "the admin's name, accents aside")
        let both = await lookUp("Nguyễn", in: workspace)
        #expect(both.family == nil && both.nameMatchesTotal == 2)
        #expect(Set(both.nameMatches.map(\.name)) == ["Tran", "Nguyen"], "a family's name or its admin's")
        #expect(both.nameMatches.first { $0.name == "Tran" }?.admin == "Minh Nguyễn")
    }
}
