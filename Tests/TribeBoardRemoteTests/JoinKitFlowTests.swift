import Foundation
import Testing
import TribeBoardDomain
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardJoinKit
import TribeBoardRemote
import TribeBoardTestSupport

/// The join kit's app flows over the toolkit's Web Services client, against the emulator: create
/// with a claim, find by code, join, activate an invited admin, two joiners at once, a lagging
/// query index. Every record left in the container is judged by the app's own rules, read from
/// the app's source (Tests/Fixtures/app).
@Suite struct JoinKitFlowTests {
    let container = CloudKitConfiguration.defaultContainer

    func start(indexLag: Double = 0) async throws -> (EmulatorFixture, JoinKit<WebServicesJoinDatabase>) {
        var options = CloudKitEmulator.Options()
        options.indexLag = indexLag
        let fixture = try await EmulatorFixture.start(options)
        return (fixture, JoinKit(database: WebServicesJoinDatabase(client: try fixture.client())))
    }

    static func person(_ name: String) -> ProfileRecord {
        ProfileRecord(id: UUID(), displayName: name, appleUserIdHash: String(repeating: "ab", count: 32), createdAt: Date())
    }

    /// Records the app reads, each checked against the app's decoders and validators.
    func expectAppAccepts(_ fixture: EmulatorFixture) async throws {
        let rules = try AppFixtureRules.load()
        for record in await fixture.emulator.records(container: container) {
            #expect(rules.violations(of: record).isEmpty, "\(record.recordType ?? "") \(record.recordName): \(rules.violations(of: record))")
        }
    }

    /// A family as `provision` leaves it for an admin invited without a hash: claim and family, no admin.
    func provisioned(_ fixture: EmulatorFixture, code: String) async throws -> FamilyRecord {
        let family = FamilyRecord(id: UUID(), name: "Okafor", code: code, createdByUserId: UUID(), createdAt: Date())
        let claim = try CodeClaim(code: code, familyID: FamilyID(rawValue: family.id.uuidString))
        _ = try await fixture.client().modify([.init(.create, claim.record), .init(.create, RecordDecoding.cloudKitRecord(family.record))])
        return family
    }

    @Test(arguments: [0.0, 2.0])
    func createFindAndJoin(indexLag: Double) async throws {
        let (fixture, kit) = try await start(indexLag: indexLag)
        defer { Task { await fixture.emulator.stop() } }
        let created = try await kit.createFamily(name: "García-López", creator: Self.person("Lucía"))
        // Typed as a person would, at once (the lookup is by name: no index to wait for).
        let found = try await kit.findFamily(code: " \(created.family.code.lowercased())\u{200B}")
        #expect(found.id == created.family.id && found.name == "García-López")
        let ben = Self.person("Ben")
        let joined = try await kit.join(code: created.family.code, as: ben)
        #expect(joined.membership.familyID == created.family.id && joined.membership.userID == ben.id)
        let records = await fixture.emulator.records(container: container)
        #expect(records.contains { $0.recordName == ben.id.uuidString && $0.recordType == "UserProfile" }, "the local id is the record name")
        #expect(records.contains { $0.recordName == joined.membership.id.uuidString
            && $0.fields?["family"]?.value.object?["recordName"] == .string(created.family.id.uuidString) })
        #expect(await fixture.emulator.claims(container: container)[try CodeClaim.recordName(forCode: created.family.code)]
                == created.family.id.uuidString)
        try await expectAppAccepts(fixture)
    }

    @Test func twoJoinersAtOnceBothJoin() async throws {
        let (fixture, kit) = try await start(indexLag: 1)
        defer { Task { await fixture.emulator.stop() } }
        let family = try await provisioned(fixture, code: "TWO234")
        async let first = kit.join(code: "two234", as: Self.person("Ann"))
        async let second = kit.join(code: "TWO234", as: Self.person("Bo"))
        let (a, b) = try await (first, second)
        #expect(a.family.id == family.id && b.family.id == family.id && a.membership.id != b.membership.id)
        let memberships = await fixture.emulator.records(container: container).filter { $0.recordType == "Membership" }
        #expect(memberships.count == 2)
        try await expectAppAccepts(fixture)
    }

    @Test func exactlyOneInvitedAdminTakesTheSeat() async throws {
        let (fixture, kit) = try await start(indexLag: 2)
        defer { Task { await fixture.emulator.stop() } }
        let family = try await provisioned(fixture, code: "ADM234")
        let ada = Self.person("Ada")
        func attempt(_ person: ProfileRecord) async -> Result<JoinKit<WebServicesJoinDatabase>.Joined, any Error> {
            do { return .success(try await kit.activateInvitedAdmin(code: "ADM234", as: person)) } catch { return .failure(error) }
        }
        async let first = attempt(ada)
        async let second = attempt(Self.person("Mallory"))
        let results = await [first, second]
        #expect(results.filter { (try? $0.get()) != nil }.count == 1)
        #expect(results.contains { if case .failure(let error) = $0 { return error as? JoinKitError == .adminSeatTaken }; return false })
        let admins = await fixture.emulator.records(container: container).filter {
            $0.recordType == "Membership" && $0.string("role") == "parent_admin" && $0.string("status") == "active"
        }
        #expect(admins.map(\.recordName) == [JoinNames.adminSeat(forFamily: family.id.uuidString).uuidString])
        try await expectAppAccepts(fixture)
    }

    @Test func aClaimNotMadeByTheFamilysCreatorIsNotFollowed() async throws {
        let (fixture, kit) = try await start()
        defer { Task { await fixture.emulator.stop() } }
        let family = try await provisioned(fixture, code: "OWN234")
        var foreign = try CodeClaim(code: "EVE234", familyID: FamilyID(rawValue: family.id.uuidString)).record
        foreign.created = CloudKitRecord.Stamp(timestamp: 0, userRecordName: "_eve")
        await fixture.emulator.seed([foreign], container: container)
        await #expect(throws: JoinKitError.self) { try await kit.findFamily(code: "EVE234") }
        let lookup = try await CodeLookup.run("EVE234", in: kit.database)
        guard case .foreignClaim(let claimCreator, _)? = lookup.stop else {
            Issue.record("lookup stopped at \(String(describing: lookup.stop))")
            return
        }
        #expect(claimCreator == "_eve")
    }

    @Test func aClaimWhoseFamilyIsGoneSaysSo() async throws {
        let (fixture, kit) = try await start()
        defer { Task { await fixture.emulator.stop() } }
        let orphan = try CodeClaim(code: "GON234", familyID: FamilyID(rawValue: UUID().uuidString))
        _ = try await fixture.client().modify([.init(.create, orphan.record)])
        let lookup = try await CodeLookup.run("GON234", in: kit.database)
        #expect(lookup.stop == .familyGone(familyName: orphan.familyID.rawValue))
    }
}
