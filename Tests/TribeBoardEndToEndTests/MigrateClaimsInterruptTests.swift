import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardTestSupport

/// Ctrl-C during `migrate claims --apply`: the run says what stands and how to finish, ends 130
/// with the `migrate.interrupted` document, and does not sit out the slow requests.
@Suite struct MigrateClaimsInterruptTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    @Test func ctrlCDuringTheBackfillSaysWhatStandsAndExits130() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("latency=2000ms")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed((1...5).map { SnapshotFixture.family(code: "CLM\($0)23") }, container: container)
        let directory = try TemporaryDirectory("claims-interrupt")
        let run = try ProcessRunner.start(tribeboard, ["migrate", "claims", "--apply", "--json"] + fixture.remoteArguments,
                                          in: directory.path)
        // The handler is installed before the first request, which takes 2 s to answer.
        try await Task.sleep(for: .milliseconds(1_000))
        let sent = ContinuousClock.now
        kill(run.pid, SIGINT)
        let result = await Task.detached { run.wait() }.value
        #expect(ContinuousClock.now - sent < .seconds(2), "at once, not after the reads")
        #expect(result.status == 130, "\(result.stdout)\n\(result.stderr)")
        let error = try ErrorDocument(result)
        #expect(error.kind == "migrate.interrupted" && error.operation == "claims")
        #expect(result.stderr.contains("run the same command again to finish"), "\(result.stderr)")
    }
}
