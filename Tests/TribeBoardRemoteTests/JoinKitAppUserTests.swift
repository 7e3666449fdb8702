import Foundation
import Logging
import Testing
import TribeBoardDomain
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardJoinKit
import TribeBoardRemote
import TribeBoardTestSupport

/// The whole app flow with real identities: the operator's key provisions, app users (each a
/// `_creator` of their own) activate, join, create and attack, against the emulator and against
/// the lead's independent stand-in (Tests/StandIn), with and without a lagging query index.
@Suite struct JoinKitAppUserTests {
    static let users = ["_ada", "_mallory", "_ann", "_bo", "_cy", "_dee", "_eve"]

    /// One backend: an operator client and a client per app user.
    struct Backend {
        let operatorClient: CloudKitClient
        let user: @Sendable (String) throws -> CloudKitClient
        let stop: @Sendable () async -> Void
    }

    static func emulator(lag: Double) async throws -> Backend {
        var options = CloudKitEmulator.Options()
        options.indexLag = lag
        let fixture = try await EmulatorFixture.start(options, users: users)
        return Backend(operatorClient: try fixture.client(), user: { try fixture.client(user: $0) },
                       stop: { await fixture.emulator.stop() })
    }

    static func standIn(lag: Double) throws -> Backend {
        let server = try StandInServer.start(users: users.map { "\($0)=token\($0)" }, options: ["--index-lag", "\(lag)"])
        return Backend(operatorClient: try server.client(), user: { user in
            var configuration = server.configuration
            configuration.keyID = nil
            configuration.keyFile = nil
            configuration.appUser = AppUserCredentials(apiToken: "standin-api-token", webAuthToken: "token\(user)")
            return CloudKitClient(configuration: configuration, signer: nil, policy: EmulatorFixture.quickRetries,
                                  logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
        }, stop: { server.stop() })
    }

    static func person(_ name: String) -> ProfileRecord {
        ProfileRecord(id: UUID(), displayName: name, appleUserIdHash: String(repeating: "c", count: 64), createdAt: Date())
    }

    func run(_ backend: Backend) async throws {
        defer { Task { await backend.stop() } }
        func kit(_ user: String) throws -> JoinKit<WebServicesJoinDatabase> {
            JoinKit(database: WebServicesJoinDatabase(client: try backend.user(user)))
        }
        var written: [String] = []
        // The operator provisions a family whose admin was invited without a hash.
        let family = FamilyRecord(id: UUID(), name: "Okafor", code: "OKA234", createdByUserId: UUID(), createdAt: Date())
        let claim = try CodeClaim(code: family.code, familyID: FamilyID(rawValue: family.id.uuidString))
        let results = try await backend.operatorClient.modify([.init(.create, claim.record),
                                                                .init(.create, RecordDecoding.cloudKitRecord(family.record))])
        #expect(results.allSatisfy { if case .record = $0 { return true }; return false }, "\(results)")
        written.append(family.id.uuidString)

        // Two people claim the admin seat at once: exactly one gets it.
        let (ada, mallory) = (Self.person("Ada"), Self.person("Mallory"))
        func activate(_ user: String, _ code: String, _ person: ProfileRecord) async -> Result<JoinKit<WebServicesJoinDatabase>.Joined, any Error> {
            do { return .success(try await kit(user).activateInvitedAdmin(code: code, as: person)) } catch { return .failure(error) }
        }
        async let first = activate("_ada", "oka234", ada)
        async let second = activate("_mallory", "OKA234", mallory)
        let seats = await [first, second]
        #expect(seats.filter { (try? $0.get()) != nil }.count == 1, "\(seats)")
        for case .success(let joined) in seats { written += [joined.profile.id.uuidString, joined.membership.id.uuidString] }

        // Two joiners at once.
        async let annJoin = kit("_ann").join(code: "OKA234", as: Self.person("Ann"))
        async let boJoin = kit("_bo").join(code: "OKA234", as: Self.person("Bo"))
        for joined in try await [annJoin, boJoin] {
            #expect(joined.family.id == family.id)
            written += [joined.profile.id.uuidString, joined.membership.id.uuidString]
        }

        // An app user creates a family; another finds it at once and joins.
        let created = try await kit("_cy").createFamily(name: "Cy's family", creator: Self.person("Cy"))
        let dee = try await kit("_dee").join(code: created.family.code.lowercased(), as: Self.person("Dee"))
        #expect(dee.family.id == created.family.id)
        written += [created.family.id.uuidString, created.profile.id.uuidString, created.membership.id.uuidString,
                    dee.profile.id.uuidString, dee.membership.id.uuidString]

        // Eve claims a free code for the operator's family: not followed.
        let foreign = try CodeClaim(code: "EVE234", familyID: FamilyID(rawValue: family.id.uuidString))
        _ = try await backend.user("_eve").modify([.init(.create, foreign.record)])
        let lookup = try await CodeLookup.run("EVE234", in: WebServicesJoinDatabase(client: try backend.user("_ann")))
        guard case .foreignClaim(let by, _)? = lookup.stop else {
            Issue.record("Eve's claim was followed: \(String(describing: lookup.stop))")
            return
        }
        #expect(by == "_eve")

        // Everything written is what the app's own decoders and validators accept.
        let rules = try AppFixtureRules.load()
        let records = try await backend.operatorClient.lookup(recordNames: written)
        #expect(records.count == written.count)
        for result in records {
            guard case .record(let record) = result else { Issue.record("missing: \(result)"); continue }
            #expect(rules.violations(of: record).isEmpty, "\(record.recordName): \(rules.violations(of: record))")
        }
    }

    @Test(arguments: [0.0, 2.0])
    func againstTheEmulator(lag: Double) async throws {
        try await run(try await Self.emulator(lag: lag))
    }

    @Test(arguments: [0.0, 2.0])
    func againstTheStandIn(lag: Double) async throws {
        try await run(try Self.standIn(lag: lag))
    }
}
