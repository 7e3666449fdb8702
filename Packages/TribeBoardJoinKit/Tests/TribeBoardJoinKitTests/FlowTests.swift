import Foundation
import Testing
@testable import TribeBoardJoinKit

/// The app's flows against an in-memory database. The toolkit's tests run the same flows against
/// the CloudKit emulator and an independent stand-in.
struct FlowTests {
    let storage = MemoryStorage()
    func kit(_ user: String) -> JoinKit<MemoryDatabase> { JoinKit(database: MemoryDatabase(storage: storage, user: user)) }
    func person(_ name: String) -> ProfileRecord {
        ProfileRecord(id: UUID(), displayName: name, appleUserIdHash: String(repeating: "a", count: 64), createdAt: Date())
    }

    @Test func createFindJoin() async throws {
        let created = try await kit("_ada").createFamily(name: "Okafor-Smith", creator: person("Ada"))
        #expect(created.membership.isActiveAdmin)
        let found = try await kit("_ben").findFamily(code: created.family.code.lowercased())
        #expect(found.id == created.family.id)
        let joined = try await kit("_ben").join(code: created.family.code, as: person("Ben"))
        #expect(joined.membership.familyID == created.family.id && joined.membership.role == .adult)
    }

    @Test func takenCodeIsReplaced() async throws {
        let first = try await kit("_ada").createFamily(name: "One", creator: person("Ada"), generate: { "ABC234" })
        var codes = ["ABC234", "XYZ789"].makeIterator()
        let second = try await kit("_ben").createFamily(name: "Two", creator: person("Ben"), generate: { codes.next() ?? "" })
        #expect(first.family.code == "ABC234" && second.family.code == "XYZ789")
    }

    @Test func foreignClaimIsNotFollowed() async throws {
        let family = try await kit("_ada").createFamily(name: "Victims", creator: person("Ada"), generate: { "ABC234" })
        // An attacker cannot overwrite the claim, but can claim an unclaimed code for someone else's family.
        _ = try await kit("_eve").database.create(JoinRecord(name: JoinNames.claim(forCode: "QQQ777"), type: "FamilyCodeClaim",
                                                             fields: ["family": .string(family.family.id.uuidString)]))
        await #expect(throws: JoinKitError.familyNotFound(.foreignClaim(claimCreator: "_eve", familyCreator: "_ada"))) {
            try await kit("_ben").findFamily(code: "QQQ777")
        }
    }

    @Test func squatterOfAnotherTypeIsNotAClaim() async throws {
        _ = try await kit("_eve").database.create(JoinRecord(name: JoinNames.claim(forCode: "SQU123"), type: "UserProfile", fields: [:]))
        await #expect(throws: JoinKitError.familyNotFound(.notAClaim(recordType: "UserProfile"))) {
            try await kit("_ben").findFamily(code: "squ123")
        }
    }

    @Test func onlyOneInvitedAdminTakesTheSeat() async throws {
        // A provisioned family: claim and family by the operator, no admin membership.
        let operatorKit = kit("_developer")
        let family = FamilyRecord(id: UUID(), name: "Invited", code: "INV234", createdByUserId: UUID(), createdAt: Date())
        _ = try await operatorKit.database.create(JoinRecord(name: JoinNames.claim(forCode: "INV234"), type: "FamilyCodeClaim",
                                                             fields: ["family": .string(family.id.uuidString)]))
        _ = try await operatorKit.database.create(family.record)
        let ada = person("Ada")
        async let first = try? kit("_ada").activateInvitedAdmin(code: "inv234", as: ada)
        async let second = try? kit("_bob").activateInvitedAdmin(code: "inv234", as: person("Bob"))
        let results = await [first, second].compactMap { $0 }
        #expect(results.count == 1)
        // Retrying is idempotent for the one who holds it.
        let again = try await kit("_ada").activateInvitedAdmin(code: "INV234", as: ada)
        #expect(again.membership.id == JoinNames.adminSeat(forFamily: family.id.uuidString))
    }

    @Test func namesTheAppRefusesAreNotWritten() async throws {
        await #expect(throws: JoinKitError.nameRefused("Display name cannot exceed 30 characters")) {
            try await kit("_ada").createFamily(name: "Fine", creator: person(String(repeating: "a", count: 31)))
        }
        await #expect(throws: JoinKitError.nameRefused("Family name contains invalid characters")) {
            try await kit("_ada").createFamily(name: "Mum & Dad", creator: person("Ada"))
        }
        #expect(storage.with { $0.isEmpty })
    }
}
