import Foundation
import Logging
import Testing
import TribeBoardDomain
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardJoinKit
import TribeBoardProjectFixtures
import TribeBoardRemote
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor

/// `doctor family CODE` shows what the app will find, through the join kit's own lookup: the
/// claim, the family, its admin and members, or the step where the lookup stops.
struct DoctorAppLookupTests {
    static let logger = Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() }

    func doctor(_ query: String, _ fixture: EmulatorFixture, store: String) async -> FamilyReport {
        var request = DoctorRequest(storePath: store, remote: .success(fixture.configuration))
        request.requestTimeout = 60 // no test here waits on a silent server; 5 s ran out under load
        return await FamilyDoctor(request: request, query: query, logger: Self.logger).run()
    }

    @Test func theAppsLookupIsShownStepByStep() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let folder = try TemporaryDirectory("doctor-app-lookup")
        let store = try DoctorFixtures.killedCreationStore(in: folder).path
        let kit = JoinKit(database: WebServicesJoinDatabase(client: try fixture.client()))
        let ada = ProfileRecord(id: UUID(), displayName: "Ada", appleUserIdHash: String(repeating: "a", count: 64), createdAt: Date())
        let created = try await kit.createFamily(name: "Okafor", creator: ada)

        let found = await doctor(created.family.code.lowercased(), fixture, store: store)
        let app = try #require(found.remote.app)
        #expect(app.appFindsFamily && app.familyID == created.family.id.uuidString)
        #expect(app.admins.map(\.displayName) == ["Ada"])
        #expect(found.findings.first { $0.id == .familyAppLookup }?.status == .ok)

        let orphan = try CodeClaim(code: "GON234", familyID: FamilyID(rawValue: UUID().uuidString))
        _ = try await fixture.client().modify([.init(.create, orphan.record)])
        let gone = await doctor("GON234", fixture, store: store)
        #expect(gone.remote.app?.stoppedAt == "familyGone" && gone.remote.app?.claimFamily == orphan.familyID.rawValue)
        #expect(gone.findings.first { $0.id == .familyAppLookup }?.status == .failure && !gone.passed)

        let unclaimed = await doctor("ZZZ999", fixture, store: store)
        #expect(unclaimed.remote.app?.stoppedAt == "noClaim")
        #expect(unclaimed.remote.app?.claimRecordName == JoinNames.claim(forCode: "ZZZ999"))
    }

    /// A record under the family's own name that an app user wrote (the name conflict resync
    /// sets aside): the app's lookup stops at this key's claim, since the app follows a claim only
    /// to a family its creator wrote. The finding says so and advises adopt, as
    /// `family.recordCreator` does, not a page of the docs.
    @Test func anotherCreatorsRecordUnderTheFamilysNameIsNamedAndAdopted() async throws {
        let appUser = "_app_user_1"
        let fixture = try await EmulatorFixture.start(users: [appUser])
        defer { Task { await fixture.emulator.stop() } }
        let (workspace, id) = try await Self.familyUnderAnAppUsersRecord(fixture, appUser: appUser)

        let report = await doctor(id, fixture, store: workspace.storePath)
        #expect(report.findings.first { $0.id == .familyRecordCreator }?.status == .failure)
        let lookup = try #require(report.findings.first { $0.id == .familyAppLookup })
        #expect(report.remote.app?.stoppedAt == "foreignClaim" && lookup.status == .failure)
        let action = lookup.action ?? ""
        #expect(action.contains(appUser), "names who wrote the record: \(action)")
        #expect(action.contains("tribeboard adopt \(id)") && action.contains("--apply"), "\(action)")
        #expect(!action.contains("docs/code-claims.md"), "\(action)")
    }

    /// A family provisioned here, its code claimed by this key, and a record under its own name
    /// that `appUser` wrote (the name conflict `family.recordCreator` reports).
    static func familyUnderAnAppUsersRecord(_ fixture: EmulatorFixture, appUser: String) async throws
        -> (workspace: ProvisionWorkspace, familyID: String) {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name,admin_display_name\nKanu,Ada Kanu\n")
        let row = try #require(try workspace.inspector().rows("SELECT id, code FROM families").first)
        let (id, code) = (try #require(row["id"]), try #require(row["code"]))
        let claim = try CodeClaim(code: code, familyID: FamilyID(rawValue: id))
        _ = try await fixture.client().modify([.init(.create, claim.record)])
        let record = SnapshotFixture.family(id: id, code: "QQ22RR", name: "Kanu (app)")
        _ = try await fixture.client(user: appUser).modify([.init(.create, record)])
        return (workspace, id)
    }
}
