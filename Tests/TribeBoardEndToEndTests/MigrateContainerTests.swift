import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardTestSupport

/// `tribeboard migrate container` between two emulators, one per container, each with its own key
/// (as a server-to-server key belongs to one container).
@Suite struct MigrateContainerTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    static let wrongContainer = "iCloud.com.tribeboard.TribeBoard"
    let container = CloudKitConfiguration.defaultContainer
    typealias F = MigrateFixtures

    func arguments(from source: EmulatorFixture, to destination: EmulatorFixture, _ extra: [String]) -> [String] {
        ["migrate", "container", "--store", "s.sqlite", "--from-container", Self.wrongContainer,
         "--from-key-id", source.keyID, "--from-key-file", source.keyFile, "--from-ck-base-url", source.emulator.baseURL]
            + destination.remoteArguments + extra
    }

    func migrate(_ source: EmulatorFixture, _ destination: EmulatorFixture, _ directory: TemporaryDirectory,
                 _ extra: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments(from: source, to: destination, extra), in: directory.path)
    }

    /// A source holding `records`, and a destination slow enough (120 ms a request) for a test to
    /// act while a run is in its middle.
    func sourceAndSlowDestination(_ records: [CloudKitRecord]) async throws -> (EmulatorFixture, EmulatorFixture) {
        let source = try await EmulatorFixture.start()
        var slow = CloudKitEmulator.Options()
        slow.faults = try EmulatorFaults.parse("latency=120ms")
        let destination = try await EmulatorFixture.start(slow)
        await source.emulator.seed(records, container: Self.wrongContainer)
        return (source, destination)
    }

    @Test func killedMidRunThenRerunEndsWithExactlyTheSourcesRecords() async throws {
        let (source, destination) = try await sourceAndSlowDestination(F.families(1_400, legacy: false)
                                                                         + F.families(100, legacy: true, offset: 5_000, kindBase: 10))
        defer { Task { await source.emulator.stop(); await destination.emulator.stop() } }
        let expected = F.contents(await source.emulator.records(container: Self.wrongContainer))
        let directory = try TemporaryDirectory("migrate-kill")
        try await NewStore.create(in: directory)

        let victim = try ProcessRunner.start(tribeboard, arguments(from: source, to: destination, ["--apply", "--out", "out", "-q"]), in: directory.path)
        // Cheap to ask (listing the records would slow the emulator down): a few batches in (each
        // group of 800 families is 4 claim requests, then 4 of families).
        for _ in 0..<3000 where (await destination.emulator.requestCounts()["records/modify"] ?? 0) < 10 {
            try await Task.sleep(for: .milliseconds(10))
        }
        victim.killHard()
        _ = victim.wait()
        let copiedBeforeKill = await destination.emulator.records(container: container).count
        #expect(copiedBeforeKill > 0 && copiedBeforeKill < expected.count, "the kill must land mid-run (\(copiedBeforeKill) of \(expected.count))")
        let checkpointed = try F.sqlite(directory.file("s.sqlite"), "SELECT COUNT(*) FROM migration_checkpoint WHERE status = 'copied'")
        #expect(Int(checkpointed.first ?? "") ?? 0 > 0, "the killed run left a checkpoint")

        await destination.emulator.setFaults(EmulatorFaults())
        let rerun = try await migrate(source, destination, directory, ["--apply", "--out", "out", "--json"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let counts = F.counts(try F.json(rerun))
        #expect((counts["checkpointed"] ?? 0) > 0, "the rerun resumed from the checkpoint: \(counts)")
        #expect((counts["checkpointed"] ?? 0) + (counts["copied"] ?? 0) + (counts["identical"] ?? 0) == expected.count)
        #expect(F.contents(await destination.emulator.records(container: container)) == expected, "exactly the source's records")
        let families = try F.sqlite(directory.file("s.sqlite"), "SELECT id || ' ' || code FROM families").map { $0.split(separator: " ").map(String.init) }
        #expect(try await destination.emulator.claimsMatch(Dictionary(uniqueKeysWithValues: families.map { ($0[0], $0[1]) }), container: container),
                "each copied family's code claimed once, by its copy, the killed run's claims found as its own")
        // The store knows the current families (the legacy ones wait for legacy-types).
        #expect(try F.sqlite(directory.file("s.sqlite"), "SELECT COUNT(*) FROM families WHERE needs_sync = 0") == ["1400"])
        #expect(try F.sqlite(directory.file("s.sqlite"), "SELECT COUNT(*) FROM memberships") == ["1400"])
    }

    /// The destination lost after the first batches: the report says what stopped the run, in
    /// words and as the error document's kind, and the records not sent are retryable.
    @Test func aDestinationLostMidRunNamesWhatStoppedIt() async throws {
        let (source, destination) = try await sourceAndSlowDestination(F.families(600, legacy: false))
        defer { Task { await source.emulator.stop(); await destination.emulator.stop() } }
        let directory = try TemporaryDirectory("migrate-lost")
        try await NewStore.create(in: directory)
        let run = try ProcessRunner.start(tribeboard, arguments(from: source, to: destination, ["--apply", "--out", "out", "--json"]), in: directory.path)
        for _ in 0..<3000 where (await destination.emulator.requestCounts()["records/modify"] ?? 0) < 1 {
            try await Task.sleep(for: .milliseconds(10))
        }
        await destination.emulator.setFaults(try EmulatorFaults.parse("down"))
        let result = run.wait()
        #expect(result.status == 75, "\(result.stderr)")
        let report = try F.json(result)
        #expect(report.stopKind == "cloudkit.network", "\(report.stoppedBy ?? "")")
        #expect(report.stoppedBy != nil && report.exitKind == "tryLater")
        #expect((F.counts(report)["failed"] ?? 0) > 0, "what was not sent waits for the next run")
    }

    @Test func faultsOnBothSidesEndInTheSameRecordsWithOnlyTryLaterOnTheWay() async throws {
        var flaky = CloudKitEmulator.Options()
        flaky.faults = try EmulatorFaults.parse("503=0.1,429=0.1,retry-after=0.05,500=0.05,drop=0.1,seed=5")
        let source = try await EmulatorFixture.start(flaky)
        flaky.faults = try EmulatorFaults.parse("503=0.1,429=0.1,retry-after=0.05,500=0.05,drop=0.1,seed=9")
        let destination = try await EmulatorFixture.start(flaky)
        defer { Task { await source.emulator.stop(); await destination.emulator.stop() } }
        await source.emulator.seed(F.families(300, legacy: false) + F.families(20, legacy: true, offset: 900, kindBase: 10),
                                   container: Self.wrongContainer)
        let expected = F.contents(await source.emulator.records(container: Self.wrongContainer))
        let directory = try TemporaryDirectory("migrate-faults")
        try await NewStore.create(in: directory)
        var statuses: [Int32] = []
        for _ in 0..<15 {
            let result = try await migrate(source, destination, directory, ["--apply", "--out", "out", "-q"])
            statuses.append(result.status)
            if result.status == 0 { break }
            #expect(result.status == 75, "only 'try later' on the way: \(result.stderr)")
        }
        #expect(statuses.last == 0, "statuses: \(statuses)")
        #expect(F.contents(await destination.emulator.records(container: container)) == expected)
    }

    @Test func aDifferentRecordAtTheDestinationIsAConflictAndACodeTakenThereIsRepaired() async throws {
        let source = try await EmulatorFixture.start()
        let destination = try await EmulatorFixture.start()
        defer { Task { await source.emulator.stop(); await destination.emulator.stop() } }
        let t0 = 1_700_000_000_000.0
        await source.emulator.seed([
            F.family("A0000000-0000-4000-8000-000000000001", code: "SAME23", createdAt: t0),
            F.family("A0000000-0000-4000-8000-000000000002", code: "TAKEN2", createdAt: t0 + F.day),
            F.family("A0000000-0000-4000-8000-000000000003", code: "CLASH2", createdAt: t0, name: "Source side"),
            F.profile("A0000000-0000-4000-8000-000000000004"),
            F.membership("A0000000-0000-4000-8000-000000000005", family: "A0000000-0000-4000-8000-000000000003",
                         user: "A0000000-0000-4000-8000-000000000004"),
        ], container: Self.wrongContainer)
        let squatter = F.family("A0000000-0000-4000-8000-000000000003", code: "CLASH2", createdAt: t0, name: "Destination side")
        await destination.emulator.seed([
            F.family("A0000000-0000-4000-8000-000000000001", code: "SAME23", createdAt: t0),
            F.family("D0000000-0000-4000-8000-000000000009", code: "TAKEN2", createdAt: t0),
            squatter,
        ], container: container)
        let directory = try TemporaryDirectory("migrate-conflict")
        try await NewStore.create(in: directory)
        let plan = try await migrate(source, destination, directory, ["--json"])
        #expect(plan.status == 1, "a plan with a conflict says so: \(plan.stderr)")

        let result = try await migrate(source, destination, directory, ["--apply", "--out", "out", "--json", "--show-codes"])
        #expect(result.status == 1, "\(result.stderr)")
        let entries = try F.json(result).entries
        let entry = { (name: String) in entries.first { $0.sourceName == name } }
        #expect(entry("A0000000-0000-4000-8000-000000000001")?.outcome == "identical")
        #expect(entry("A0000000-0000-4000-8000-000000000003")?.outcome == "conflict")
        #expect(entry("A0000000-0000-4000-8000-000000000003")?.reason?.contains("name") == true, "names the differing field")
        #expect(entry("A0000000-0000-4000-8000-000000000005")?.outcome == "skipped")
        let recode = try #require(entry("A0000000-0000-4000-8000-000000000002")?.recode)
        #expect(recode.oldCode == "TAKEN2" && recode.keptBy == "D0000000-0000-4000-8000-000000000009")
        let records = await destination.emulator.records(container: container)
        #expect(records.first { $0.recordName == "A0000000-0000-4000-8000-000000000003" }?.string("name") == "Destination side", "never overwritten")
        let newCode = try #require(records.first { $0.recordName == "A0000000-0000-4000-8000-000000000002" }?.string("code"))
        #expect(newCode == recode.newCode && newCode != "TAKEN2")
        #expect(try QRReader.decode([directory.file("out/qr/A0000000-0000-4000-8000-000000000002.png")]) == [newCode])
        let codes = records.compactMap { $0.string("code") }
        #expect(Set(codes).count == codes.count, "no duplicate code: \(codes)")
    }

    /// The very copy a migration would write, already at the destination but written by another
    /// creator (an app user who read the public source and got there first): not this copy in
    /// place (its creator alone may change or delete it), so a conflict naming that creator, in
    /// the plan and in the run, and never overwritten.
    @Test func anIdenticalRecordAnotherCreatorWroteAtTheDestinationIsAConflict() async throws {
        let source = try await EmulatorFixture.start()
        let destination = try await EmulatorFixture.start()
        defer { Task { await source.emulator.stop(); await destination.emulator.stop() } }
        let id = "A0000000-0000-4000-8000-000000000007"
        let family = F.family(id, code: "OWNED7", createdAt: 1_700_000_000_000)
        await source.emulator.seed([family], container: Self.wrongContainer)
        var planted = family
        planted.created = CloudKitRecord.Stamp(timestamp: 1_700_000_000_000, userRecordName: "_app_user_9")
        await destination.emulator.seed([planted], container: container)
        let directory = try TemporaryDirectory("migrate-planted")
        try await NewStore.create(in: directory)
        for extra in [["--json"], ["--apply", "--out", "out", "--json"]] {
            let result = try await migrate(source, destination, directory, extra)
            #expect(result.status == 1, "\(extra): \(result.stdout) \(result.stderr)")
            let entry = try F.json(result).entries.first { $0.sourceName == id }
            #expect(entry?.outcome == "conflict", "\(extra): \(result.stdout)")
            #expect(entry?.reason?.contains("_app_user_9") == true, "names the creator: \(entry?.reason ?? "")")
        }
        let held = await destination.emulator.records(container: container).first { $0.recordName == id }
        #expect(held?.created?.userRecordName == "_app_user_9", "never overwritten")
    }

    @Test func theSourceMustBeAnotherContainer() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("migrate-same")
        let result = try await ProcessRunner.runAsync(tribeboard, ["migrate", "container", "--store", "s.sqlite", "--from-container",
                                                                   container, "--json"] + fixture.remoteArguments, in: directory.path)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(try ErrorDocument(result).kind == "migrate.sourceIsDestination")
        let link = directory.file("tribeboard-migrate")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: tribeboard)
        #expect(try await ProcessRunner.runAsync(link, ["container", "--help"]).status == 0, "the installed name runs migrate")
    }
}
