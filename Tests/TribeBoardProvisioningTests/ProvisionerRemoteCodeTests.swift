import Foundation
import Logging
import Testing
import TribeBoardCloudFixtures
import TribeBoardStoreFixtures
import TribeBoardSupport
import TribeBoardCloudKitEmulator
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardProvisioning
@testable import TribeBoardRemote

/// Seed requirement 2.2 with a remote: a generated code that a CloudKit family already holds is
/// replaced at once, and the family is stored as remotely verified.
@Suite("Provisioner: codes taken in CloudKit")
struct ProvisionerRemoteCodeTests {
    /// A container set up without the legacy types (the schema file less its CK* types, as
    /// containers made before they shipped in it) has no CKFamily: that is asked once a run, not
    /// once per 200 codes of every batch; the codes are still all checked in Family, and found.
    @Test func aMissingLegacyTypeIsAskedForOnceARun() async throws {
        var schema = try CloudKitEmulator.Options.templateSchema()
        schema.types = schema.types.filter { !$0.key.hasPrefix("CK") }
        let fixture = try await EmulatorFixture.start(.enforcing(development: schema, production: schema))
        defer { Task { await fixture.emulator.stop() } }
        let held = RecordMapping.family(id: "0190A1B2-C3D4-7E5F-8123-456789ABCDEF", name: "Remote", code: "HELD42",
                                        createdByUserId: "0190A1B2-C3D4-7E5F-8123-456789ABCDE0", createdAt: .now)
        await fixture.emulator.seed([held], container: CloudKitConfiguration.defaultContainer)
        let check = RemoteCodeCheck(client: try fixture.client(), logger: TestLogger.quiet)
        let codes = (0..<450).map { String(format: "Q%05d", $0) }
        #expect(await check.holders(of: codes) == [:])
        #expect(await check.holders(of: codes + ["HELD42"]) == ["HELD42": held.recordName])
        // Family: 3 queries for 450 codes, then 3 for 451; CKFamily: the first, and never again.
        #expect(await fixture.emulator.requestCounts()["records/query"] == 7)
        #expect(check.isAvailable)
    }

    @Test func aGeneratedCodeHeldRemotelyIsRegenerated() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let taken = RecordMapping.family(id: "0190A1B2-C3D4-7E5F-8123-456789ABCDEF", name: "Remote", code: "REMATE",
                                         createdByUserId: "0190A1B2-C3D4-7E5F-8123-456789ABCDE0", createdAt: .now)
        await fixture.emulator.seed([taken], container: CloudKitConfiguration.defaultContainer)
        let source = ScriptedRandomSource([ScriptedRandomSource.code("REMATE"), ScriptedRandomSource.code("FRESH2")])
        let workspace = try ProvisionWorkspace()
        let remote = RemoteCodeCheck(client: try fixture.client(), logger: TestLogger.quiet)
        let csv = try workspace.folder.write("families.csv", "external_id,family_name\nE1,Only Family\n")
        var request = ProvisionRequest(csvPath: csv, storePath: workspace.storePath, outputDirectory: workspace.outputPath)
        request.batchSize = 16
        request.codeLength = 6  // the scripted codes have six characters
        let provisioner = Provisioner(request: request, logger: TestLogger.quiet, randomSource: source, remote: remote)
        // The provisioner blocks while it waits for the network: run it off the cooperative pool,
        // which serves the emulator.
        let report = try await PipelineThread.run { try await provisioner.run() }
        #expect(report.created == 1 && report.codesVerifiedRemotely == 1)
        #expect(try workspace.codesByName()["Only Family"] == "FRESH2")
        #expect(try workspace.inspector().count("SELECT COUNT(*) FROM families WHERE code_verified_remotely_at IS NOT NULL") == 1)
    }
}
