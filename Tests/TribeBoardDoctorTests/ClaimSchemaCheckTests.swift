import Foundation
import Logging
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardDoctor
import TribeBoardRemote

/// doctor's check of the code-claim type (docs/code-claims.md) against containers of each shape,
/// answered with Apple's texts by the emulator's schema rules.
@Suite("Doctor: the code claim type")
struct ClaimSchemaCheckTests {
    func check(_ options: CloudKitEmulator.Options, production: Bool = false) async throws -> DoctorCheck {
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        var configuration = fixture.configuration
        if production { configuration.environment = .production }
        let signer = try CloudKitSigner(keyID: fixture.keyID, privateKeyPEM: fixture.privateKeyPEM)
        let client = CloudKitClient(configuration: configuration, signer: signer, policy: EmulatorFixture.quickRetries,
                                    logger: .init(label: "tests") { _ in SwiftLogNoOpLogHandler() })
        return await ClaimSchemaCheck(client: client).run()
    }

    @Test func aContainerSetUpFromTheSchemaFileHasTheTypeWithoutAnIndex() async throws {
        let result = try await check(try .templateContainer(), production: true)
        #expect(result.status == .ok, "\(result.found)")
    }

    @Test func productionWithoutTheTypeCannotTakeClaimsAndSaysWhatToDeploy() async throws {
        let result = try await check(.enforcing(development: try CloudKitEmulator.Options.templateSchema(), production: .empty), production: true)
        #expect(result.status == .failure)
        #expect(result.action?.contains("Deploy Schema Changes") == true, "\(result.action ?? "")")
    }

    @Test func anEmptyDevelopmentContainerCreatesTheTypeOnTheFirstClaim() async throws {
        let result = try await check(.enforcing(development: .empty))
        #expect(result.status == .warning && result.found.contains("first claim"), "\(result.found)")
    }

    /// The index Apple's Console guide adds to browse records (`___recordID` QUERYABLE), or one on
    /// `___createTime`, lets an unfiltered or a time query list every claim: a failure in
    /// production, though the `family` field has no index (before, only `family` was probed).
    @Test(arguments: ["___recordID", "___createTime"])
    func aClaimTypeAnyQueryCanListFailsInProduction(index: String) async throws {
        var schema = try CloudKitEmulator.Options.templateSchema()
        schema.types[CodeClaim.recordType]?.fields[index]?.queryable = true
        let result = try await check(.enforcing(development: schema, production: schema), production: true)
        #expect(result.status == .failure && result.found.contains(index), "\(result.found)")
    }

    @Test func aTypeWhoseClaimsCanBeQueriedIsAWarning() async throws {
        // Without a schema every field is queryable: claims could be listed.
        let result = try await check(CloudKitEmulator.Options())
        #expect(result.status == .warning && result.found.contains("list"), "\(result.found)")
    }
}
