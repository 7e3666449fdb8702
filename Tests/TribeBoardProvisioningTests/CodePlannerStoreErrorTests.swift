import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardStoreFixtures
import TribeBoardSupport
import TribeBoardStore
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardProvisioning
@testable import TribeBoardRemote

/// With a remote, codes are planned before the store transaction. A store that cannot be read
/// while planning stops the run with that store error: it used to be swallowed (`try?`) as a
/// failed generation, and the run went on as if the store had answered.
@Suite struct CodePlannerStoreErrorTests {
    @Test func aStoreFailureWhilePlanningStopsTheRunWithItsIdentity() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let workspace = try ProvisionWorkspace()
        try workspace.run("external_id,family_name\nE0,Held Family\n", source: ScriptedRandomSource([ScriptedRandomSource.code("HELD22")]))
        let edit = try ProcessRunner.run("/usr/bin/sqlite3", [workspace.storePath, "UPDATE families SET name = x'FF' WHERE code = 'HELD22'"])
        try #require(edit.status == 0, "\(edit.stderr)")
        let held = try #require(try workspace.inspector().strings("SELECT id FROM families WHERE code = 'HELD22'").first)

        // The next run draws the held code first: looking it up reads the damaged row.
        let source = ScriptedRandomSource([ScriptedRandomSource.code("HELD22"), ScriptedRandomSource.code("FRESH2")])
        let remote = RemoteCodeCheck(client: try fixture.client(), logger: TestLogger.quiet)
        var request = ProvisionRequest(csvPath: try workspace.folder.write("more.csv", "external_id,family_name\nE1,New Family\n"),
                                       storePath: workspace.storePath, outputDirectory: workspace.outputPath)
        request.batchSize = 16
        request.codeLength = 6  // the scripted codes have six characters
        let provisioner = Provisioner(request: request, logger: TestLogger.quiet, randomSource: source, remote: remote)
        let outcome = try await PipelineThread.run { () async throws -> StoreError? in
            do {
                _ = try await provisioner.run()
                return nil
            } catch ProvisionError.store(let error) {
                return error
            }
        }
        #expect(outcome == .unreadableValue(table: "families", rowID: held, column: "name", found: "a blob of 1 byte"))
        #expect(try workspace.count("families") == 1, "nothing was created after the store failed")
    }
}
