import Foundation
import Logging
import Testing
import TribeBoardDomain
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardRemote
import TribeBoardTestSupport

/// The attacks of `ClaimAttackTests` made by a signed-in app user through Web Services (not
/// seeded), against the emulator and against the independent stand-in, whichever code the
/// stand-in answers a create of a taken name with (Apple does not document which).
@Suite(.serialized) struct ClaimAppUserAttackTests {
    enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case emulator, standIn, standInConflict, standInAccessDenied
        var testDescription: String { rawValue }

        var standInOptions: [String]? {
            switch self {
            case .emulator: return nil
            case .standIn: return []
            case .standInConflict: return ["--create-existing", "CONFLICT"]
            case .standInAccessDenied: return ["--create-existing", "ACCESS_DENIED"]
            }
        }
    }

    /// A backend with one app user: the operator's remote options and the attacker's client.
    struct Remote {
        let arguments: [String]
        let attacker: CloudKitClient
        let operatorClient: CloudKitClient
        let stop: @Sendable () async -> Void
    }

    let tribeboard = ProcessRunner.executable("tribeboard")
    static let attacker = "_app_user_attacker"

    func start(_ backend: Backend) async throws -> Remote {
        guard let options = backend.standInOptions else {
            let fixture = try await EmulatorFixture.start(users: [Self.attacker])
            return Remote(arguments: fixture.remoteArguments, attacker: try fixture.client(user: Self.attacker),
                          operatorClient: try fixture.client(), stop: { await fixture.emulator.stop() })
        }
        let standIn = try StandInServer.start(users: ["\(Self.attacker)=attacker-token"], options: options)
        var configuration = CloudKitConfiguration()
        configuration.baseURL = standIn.baseURL
        configuration.appUser = AppUserCredentials(apiToken: "api-token", webAuthToken: "attacker-token")
        let attacker = CloudKitClient(configuration: configuration, signer: nil, policy: EmulatorFixture.quickRetries,
                                      logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
        return Remote(arguments: standIn.remoteArguments, attacker: attacker, operatorClient: try standIn.client(),
                      stop: { standIn.stop() })
    }

    func run(_ directory: TemporaryDirectory, _ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments + ["--store", "s.sqlite"], in: directory.path)
    }

    /// What the attacker's app creates: a claim under `code`'s name naming `family`, or a record
    /// of another type under it.
    func plant(_ client: CloudKitClient, code: String, family: String, type: String = CodeClaim.recordType) async throws {
        var record = try CodeClaim(code: code, familyID: FamilyID(rawValue: family)).record
        record.recordType = type
        let results = try await client.modify([CloudKitOperation(.create, record)])
        for case .failure(let error) in results { Issue.record("the attacker's create was refused: \(error)") }
    }

    func lookup(_ client: CloudKitClient, _ name: String) async throws -> CloudKitRecord? {
        let results = try await client.lookup(recordNames: [name])
        guard case .record(let record)? = results.first else { return nil }
        return record
    }

    @Test(arguments: Backend.allCases)
    func anAppUsersClaimsAndSquattersNeverCountAsOurs(backend: Backend) async throws {
        let remote = try await start(backend)
        defer { Task { await remote.stop() } }
        let directory = try TemporaryDirectory("attack-app-user")

        // A foreign claim naming our own family, made before the family's first upload.
        try directory.write("keeper.csv", "family_name,admin_display_name,code\nKeeper,Ana,FORGN234\n")
        #expect(try await run(directory, ["provision", "keeper.csv", "--out", "out-keeper", "-q"]).status == 0)
        let keeper = try #require(try StoreInspector(path: directory.file("s.sqlite")).strings("SELECT id FROM families").first)
        try await plant(remote.attacker, code: "FORGN234", family: keeper)
        let resync = try await run(directory, ["resync"] + remote.arguments)
        #expect(resync.status == 1, "set aside: \(resync.stderr)")
        #expect(try await lookup(remote.operatorClient, keeper) == nil, "the family did not go up on a claim it does not hold")

        // A planted claim and a squatter among four preassigned codes.
        try await plant(remote.attacker, code: "PLANT234", family: "ATTACKER-FAMILY")
        try await plant(remote.attacker, code: "SQUAT234", family: "X", type: "UserProfile")
        try directory.write("in.csv", "external_id,family_name,code\nA,Alpha,GOODA234\nB,Beta,PLANT234\nC,Gamma,GOODC234\nD,Delta,SQUAT234\n")
        let provision = try await run(directory, ["provision", "in.csv", "--out", "out", "--json"] + remote.arguments)
        #expect(provision.status == 1, "\(provision.stderr)")
        let manifest = Dictionary(uniqueKeysWithValues: try ManifestFile.read(directory.file("out/manifest.csv")).map { ($0.externalId, $0) })
        #expect(manifest["A"]?.claim == "claimed" && manifest["C"]?.claim == "claimed", "\(manifest)")
        #expect(manifest["B"]?.status == "failed" && manifest["B"]?.error.contains(Self.attacker) == true, "\(manifest["B"]?.error ?? "")")
        #expect(manifest["D"]?.status == "failed" && manifest["D"]?.error.contains("UserProfile") == true, "\(manifest["D"]?.error ?? "")")
        let pngs = try FileManager.default.contentsOfDirectory(atPath: directory.file("out/qr")).filter { $0.hasSuffix(".png") }
        #expect(pngs.count == 2, "cards only for the claimed codes: \(pngs)")

        // The claims stay as the attacker made them (nothing of theirs deleted or overwritten),
        // and ours name our families.
        let planted = try await lookup(remote.operatorClient, try CodeClaim.recordName(forCode: "PLANT234"))
        #expect(planted?.created?.userRecordName == Self.attacker && planted?.string("family") == "ATTACKER-FAMILY")
        let ours = try await lookup(remote.operatorClient, try CodeClaim.recordName(forCode: "GOODA234"))
        #expect(ours?.string("family") == manifest["A"]?.familyId)
    }
}
