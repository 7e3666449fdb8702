import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport
import TribeBoardRemote

/// `tribeboard resync` as cron runs it: the real binary against the loopback emulator.
@Suite struct ResyncTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    /// A store with `families` provisioned offline (every third with a signed-in admin).
    func provisioned(_ families: Int, in directory: TemporaryDirectory) async throws {
        try directory.write("in.csv", CSVFixtures.families(count: families))
        let result = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                                      in: directory.path)
        try #require(result.status == 0, "\(result.stderr)")
    }

    func resync(_ fixture: EmulatorFixture, in directory: TemporaryDirectory, _ extra: [String] = []) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, ["resync", "--store", "s.sqlite"] + fixture.remoteArguments + extra, in: directory.path)
    }

    func localIDs(_ directory: TemporaryDirectory) throws -> Set<String> {
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        return Set(try store.strings("SELECT id FROM families UNION ALL " + Self.uploadable))
    }

    /// The profiles and memberships that go up: an admin invited without an Apple account hash
    /// waits in the store until they join (the app cannot decode a profile without one).
    static let uploadable = """
        SELECT id FROM user_profiles WHERE apple_user_id_hash IS NOT NULL UNION ALL
        SELECT m.id FROM memberships m JOIN user_profiles u ON u.id = m.user_id WHERE u.apple_user_id_hash IS NOT NULL
        """

    func localCodes(_ directory: TemporaryDirectory) throws -> [String: String] {
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        return Dictionary(uniqueKeysWithValues: try store.rows("SELECT id, code FROM families").map { ($0["id"] ?? "", $0["code"] ?? "") })
    }

    @Test func faultsAndResetsUntilEverythingIsFlushedExactlyOnce() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("503=0.1,429=0.05,retry-after=0.05,500=0.05,drop=0.1,seed=11")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("resync-faults")
        try await provisioned(300, in: directory)
        var statuses: [Int32] = []
        for _ in 0..<15 {
            let result = try await resync(fixture, in: directory)
            statuses.append(result.status)
            if result.status == 0 { break }
            #expect(result.status == 75, "only 'try later' is acceptable on the way: \(result.stderr)")
        }
        #expect(statuses.last == 0, "statuses: \(statuses)")
        let remote = await fixture.emulator.records(container: container)
        let local = try localIDs(directory)
        #expect(Set(remote.map(\.recordName)) == local, "every record exactly once, and no other")
        #expect(try await fixture.emulator.claimsMatch(try localCodes(directory), container: container), "every code claimed once, by its family")
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count(
            "SELECT (SELECT COUNT(*) FROM families WHERE needs_sync = 1) + (SELECT COUNT(*) FROM user_profiles WHERE needs_sync = 1 AND apple_user_id_hash IS NOT NULL)") == 0)
    }

    /// A resync killed once `modifies` records/modify requests have reached the emulator (cheap to
    /// ask, unlike listing the records), then run again without latency: every record once, every
    /// code claimed by its family, and what the killed run sent settled as EXISTS, not as errors.
    func killMidRunThenRerun(families: Int, latency: String, modifies: Int) async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("latency=\(latency)")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("resync-kill")
        try await provisioned(families, in: directory)
        let victim = try ProcessRunner.start(tribeboard, ["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory.path)
        for _ in 0..<600 where (await fixture.emulator.requestCounts()["records/modify"] ?? 0) < modifies {
            try await Task.sleep(for: .milliseconds(10))
        }
        victim.killHard()
        _ = victim.wait()
        let before = await fixture.emulator.records(container: container).count
        let total = try localIDs(directory).count
        #expect(before > 0 && before < total, "the kill must land mid-run (\(before) of \(total) uploaded)")
        await fixture.emulator.setFaults(EmulatorFaults())
        let rerun = try await resync(fixture, in: directory, ["--json"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(Set(await fixture.emulator.records(container: container).map(\.recordName)) == (try localIDs(directory)))
        #expect(try await fixture.emulator.claimsMatch(try localCodes(directory), container: container), "claims the killed run made are found as ours")
        let json = try rerun.report(ResyncReportMirror.self)
        #expect(json.failed == 0, "records the killed run uploaded but did not mark are settled as EXISTS, not errors")
    }

    @Test func killedMidRunThenRerunFinishesWithoutDuplicatesOrErrors() async throws {
        // Pages go 4 at a time: past the 10th request, a page of families has been stored.
        try await killMidRunThenRerun(families: 1_500, latency: "80ms", modifies: 10)
    }

    /// Pages go up side by side (a far container): killed while several requests are on the wire.
    @Test func killedWithSeveralRequestsInFlightThenRerunEndsExact() async throws {
        try await killMidRunThenRerun(families: 2_000, latency: "150ms", modifies: 9)
    }

    /// On a terminal a person sees a progress bar, then the summary; under cron (no terminal) a
    /// run that did its job prints nothing.
    @Test func aTerminalShowsProgressThenTheSummaryCronSeesNothing() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("latency=20ms")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("resync-terminal")
        try await provisioned(300, in: directory)
        let command = ([tribeboard, "resync", "--store", "s.sqlite"] + fixture.remoteArguments).joined(separator: " ")
        let onTerminal = try await ProcessRunner.runAsync("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], in: directory.path)
        #expect(onTerminal.status == 0, "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains("%") && onTerminal.stdout.contains("ETA"), "a progress bar: \(onTerminal.stdout)")
        let uploadable = try localIDs(directory).count
        #expect(onTerminal.stdout.contains("Resync: \(uploadable) records uploaded"), "then the summary: \(onTerminal.stdout)")
        try await provisioned(310, in: directory)
        let fromCron = try await resync(fixture, in: directory)
        #expect(fromCron.status == 0 && fromCron.stdout.isEmpty && fromCron.stderr.isEmpty, "\(fromCron.stdout)\(fromCron.stderr)")
    }

    @Test func anOverlappingRunExitsAtOnceWith73() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("latency=100ms")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("resync-overlap")
        try await provisioned(600, in: directory)
        let first = try ProcessRunner.start(tribeboard, ["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory.path)
        // The first run holds the lock once its pid is in the lock file: wait for that, not for a time.
        let lockFile = directory.file("s.sqlite.resync-lock")
        for _ in 0..<2_000 where ((try? String(contentsOfFile: lockFile, encoding: .utf8)) ?? "").isEmpty { usleep(5_000) }
        // A run that waited for the lock would get it when the first ends and exit 0: 73 means at once.
        let second = try await resync(fixture, in: directory, ["--json"])
        #expect(second.status == 73, "\(second.stderr)")
        let error = try ErrorDocument(second)
        #expect(error.kind == "lock.held" && error.status == "lockHeld" && error.pid == first.pid, "\(error)")
        #expect(first.wait().status == 0)
    }

    @Test func aCodeTakenInCloudKitIsAConflictAndNothingRemoteIsOverwritten() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("resync-conflict")
        try await provisioned(5, in: directory)
        let victim = try #require(try StoreInspector(path: directory.file("s.sqlite")).rows("SELECT id, code FROM families ORDER BY id LIMIT 1").first)
        let holder = RecordMapping.family(id: "0190A1B2-C3D4-7E5F-8123-456789ABCDEF", name: "Someone Else", code: try #require(victim["code"]),
                                          createdByUserId: "0190A1B2-C3D4-7E5F-8123-456789ABCDE0", createdAt: .now)
        await fixture.emulator.seed([holder], container: container)

        let result = try await resync(fixture, in: directory)
        #expect(result.status == 1, "\(result.stderr)")
        let remote = await fixture.emulator.records(container: container)
        #expect(remote.first { $0.recordName == holder.recordName }?.string("name") == "Someone Else")
        #expect(!remote.contains { $0.recordName == victim["id"] })
        let list = try await ProcessRunner.runAsync(tribeboard, ["resync", "--store", "s.sqlite", "--list", "--json"], in: directory.path)
        let entries = try list.report(ResyncListMirror.self).entries
        let entry = entries.first { $0.id == victim["id"] }
        #expect(entry?.status == "conflict" && entry?.conflictWith == holder.recordName, "\(list.stdout)")
    }

    @Test func aPermanentlyBadRecordIsQuarantinedAndDoesNotBlockTheRest() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("resync-quarantine")
        try await provisioned(20, in: directory)
        let damaged = try #require(try StoreInspector(path: directory.file("s.sqlite")).strings("SELECT id FROM families ORDER BY id LIMIT 1").first)
        _ = try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"), "UPDATE families SET created_at = 'yesterday' WHERE id = '\(damaged)'"])

        let first = try await resync(fixture, in: directory, ["--metrics-file", "metrics.prom"])
        #expect(first.status == 1, "\(first.stderr)")
        #expect(await fixture.emulator.records(container: container).filter { $0.recordType == "Family" }.count == 19)
        let metrics = try String(contentsOfFile: directory.file("metrics.prom"), encoding: .utf8)
        #expect(metrics.contains("tribeboard_resync_quarantined_records 1"))
        // Quarantined records are not retried: the next run asks nothing more of the remote.
        let requestsBefore = await fixture.emulator.requestCounts()["records/modify"] ?? 0
        let second = try await resync(fixture, in: directory)
        #expect(second.status == 1)
        #expect(await fixture.emulator.requestCounts()["records/modify"] == requestsBefore)
    }

    /// Monitoring reads the metrics file: a run that could not write it must not look successful.
    @Test(arguments: ["folder", "no-such-folder/metrics.prom"]) func aMetricsFileThatCannotBeWrittenEnds74AndSaysSo(target: String) async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("resync-metrics")
        try await provisioned(3, in: directory)
        try FileManager.default.createDirectory(atPath: directory.file("folder"), withIntermediateDirectories: false)
        let result = try await resync(fixture, in: directory, ["--metrics-file", target, "--json"])
        #expect(result.status == 74, "\(result.stderr)")
        let report = try result.report(ResyncReportMirror.self)
        #expect(report.synced >= 3, "the upload itself was done: \(result.stdout)")
        #expect(report.metricsFileError?.contains(target) == true, "\(result.stdout)")
        #expect(await fixture.emulator.records(container: container).filter { $0.recordType == "Family" }.count == 3)
    }

    /// A report printed before a failing exit is the run's one document: no error document follows it.
    @Test func releasingARecordThatIsNotSetAsideIsOneDocument() async throws {
        let directory = try TemporaryDirectory("resync-release-json")
        try await provisioned(1, in: directory)
        let result = try await ProcessRunner.runAsync(tribeboard, ["resync", "--store", "s.sqlite", "--release", "NO-SUCH-ID", "--json"],
                                                      in: directory.path)
        #expect(result.status == 64, "\(result.stderr)")
        let report = try result.report(ResyncReleaseMirror.self)
        #expect(report.command == "resync --release" && report.notSetAside == ["NO-SUCH-ID"], "\(report)")
        #expect(try !result.report(JSONKeys.self).keys.contains("error"))
    }

    @Test func withoutARemoteResyncSaysWhatIsMissing() async throws {
        let directory = try TemporaryDirectory("resync-unconfigured")
        try await provisioned(2, in: directory)
        let result = try await ProcessRunner.runAsync(tribeboard, ["resync", "--store", "s.sqlite", "--json"], in: directory.path)
        #expect(result.status == 78)
        let error = try ErrorDocument(result)
        #expect(error.kind == "remote.notConfigured" && error.status == "remoteConfiguration", "\(error)")
        #expect(error.message.contains("--key-id"), "the message names the options to give")
    }
}
