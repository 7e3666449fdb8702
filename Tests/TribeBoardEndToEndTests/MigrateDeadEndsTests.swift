import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// The migration's dead ends, as an operator meets them with the real binary
/// against the emulator. Every way out is a command, in order; nothing is silent.
@Suite struct MigrateDeadEndsTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer
    typealias F = MigrateFixtures
    let t0 = 1_700_000_000_000.0

    func migrate(_ fixture: EmulatorFixture, _ directory: TemporaryDirectory, _ extra: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, ["migrate", "legacy-types", "--store", "s.sqlite"] + fixture.remoteArguments + extra,
                                         in: directory.path)
    }

    /// The entries by source name (the last of a repeated name, as before).
    func entries(_ report: MigrateReportMirror) -> [String: MigrateReportMirror.Entry] {
        var byName: [String: MigrateReportMirror.Entry] = [:]
        for entry in report.entries { byName[entry.sourceName] = entry }
        return byName
    }

    /// An older legacy family whose code a newer current family holds: the way out names recode
    /// (the audit cannot see a family of the other side), the upload and the migration again,
    /// in that order; `AdviceAsPrintedTests` runs them as printed.
    @Test func theRepairAdviceNamesRecodeThenResyncThenTheRerun() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([
            F.family("C0000000-0000-4000-8000-000000000001", code: "HELD23", createdAt: t0),
            F.family("L1", code: "HELD23", createdAt: t0 - F.day, legacy: true),
        ], container: container)
        let directory = try TemporaryDirectory("migrate-advice")
        let plan = try await migrate(fixture, directory, ["--json"])
        #expect(plan.status == 1, "\(plan.stderr)")
        let l1 = try #require(entries(try F.json(plan))["L1"])
        #expect(l1.outcome == "code-conflict")
        let reason = try #require(l1.reason)
        let steps = AsPrinted.commands(in: reason)
        #expect(steps.count == 2, "\(reason)")
        #expect(steps.first?.hasPrefix("tribeboard recode C0000000-0000-4000-8000-000000000001 --store STORE --container") == true,
                "not in this store: the one that provisioned it: \(reason)")
        #expect(steps.first?.hasSuffix(" --apply --out DIR") == true, "\(reason)")
        // The destination's flags, so the steps reach it whatever the shell holds.
        let remote = ["--key-id", fixture.keyID, "--ck-base-url", fixture.emulator.baseURL]
        #expect(steps.allSatisfy { step in remote.allSatisfy { AsPrinted.words(step).contains($0) } }, "\(reason)")
        #expect(steps.last?.hasPrefix("tribeboard resync --store STORE --container") == true
                && reason.contains("run this migration again"), "\(reason)")
    }

    /// Two legacy families; one invalid legacy membership (a role the app does not know) in the
    /// second. `--delete-source` refuses, naming both ways out; `--keep-source` that record deletes
    /// every other legacy record, and keeps the family and profile it references with it.
    @Test func oneInvalidRecordNoLongerBlocksTheDeletionForGood() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([
            F.family("L1", code: "OWN234", createdAt: t0, legacy: true), F.profile("P1", legacy: true),
            F.membership("M1", family: "L1", user: "P1", legacy: true),
            F.family("L2", code: "OWN567", createdAt: t0, legacy: true), F.profile("P2", legacy: true),
            F.membership("M2", family: "L2", user: "P2", legacy: true),
            F.membership("M9", family: "L2", user: "P2", role: "owner", legacy: true),
        ], container: container)
        let directory = try TemporaryDirectory("migrate-keep")
        try await NewStore.create(in: directory)
        let legacyNames = { await fixture.emulator.records(container: self.container).filter { $0.recordType?.hasPrefix("CK") == true }.map(\.recordName).sorted() }

        let blocked = try await migrate(fixture, directory, ["--apply", "--out", "out", "--delete-source", "--json"])
        #expect(blocked.status == 1, "\(blocked.stderr)")
        let refused = try #require(try F.json(blocked).deletionRefused)
        #expect(refused.contains("--keep-source M9") && refused.contains("CloudKit Console"), "\(refused)")
        #expect(await legacyNames() == ["L1", "L2", "M1", "M2", "M9", "P1", "P2"], "nothing deleted")
        let blockedAudit = try await audit(fixture, directory)
        #expect(blockedAudit.findings.filter { $0.category == "legacy-record" }.compactMap(\.count).reduce(0, +) == 7,
                "nothing kept on purpose yet: the audit names every legacy record as before")
        #expect(blockedAudit.legacyKept == 0)

        let misspelt = try await migrate(fixture, directory, ["--apply", "--out", "out", "--delete-source", "--keep-source", "M99", "--json"])
        #expect(misspelt.status == 1)
        #expect(try F.json(misspelt).deletionRefused?.contains("M99") == true)
        #expect(await legacyNames().count == 7, "a name no record has deletes nothing")

        let kept = try await migrate(fixture, directory, ["--apply", "--out", "out", "--delete-source", "--keep-source", "M9", "--json"])
        let report = try F.json(kept)
        #expect(kept.status == 1, "M9 is still not migrated: \(kept.stderr)")
        #expect(report.deletionRefused == nil, "\(report.deletionRefused ?? "")")
        #expect(report.sourceDeleted == 4 && report.sourceKept == 3)
        let byName = entries(report)
        #expect(byName["M9"]?.sourceKept == "--keep-source")
        #expect(byName["L2"]?.sourceKept?.contains("M9") == true)
        #expect(byName["P2"]?.sourceKept?.contains("M9") == true)
        #expect(byName["M9"]?.outcome == "invalid")
        #expect(await legacyNames() == ["L2", "M9", "P2"], "only the kept records remain")
        let keptAudit = try await audit(fixture, directory)
        #expect(keptAudit.legacyKept == 3, "\(keptAudit.findings.map(\.message))")
        let named = keptAudit.findings.filter { $0.category == "legacy-record" || $0.families.contains { ["L2", "M9", "P2"].contains($0.id) } }
        #expect(named.isEmpty, "kept on purpose, not to migrate or delete again: \(named.map(\.message))")

        let text = try await migrate(fixture, directory, ["--apply", "--out", "out", "--delete-source", "--keep-source", "M9"])
        #expect(text.stdout.contains("Legacy records kept (--keep-source): 3"), "\(text.stdout)")
    }

    func audit(_ fixture: EmulatorFixture, _ directory: TemporaryDirectory) async throws -> AuditReportMirror {
        let result = try await ProcessRunner.runAsync(tribeboard, ["audit", "--store", "s.sqlite", "--json"] + fixture.remoteArguments,
                                                      in: directory.path)
        #expect([0, 1].contains(result.status), "\(result.stderr)")
        return try result.report(AuditReportMirror.self)
    }

    /// A re-coded family's new code is masked on the terminal and in the report, and in full in
    /// an owner-only CSV in --out, the same code the family's record holds.
    @Test func newCodesAreInAnOwnerOnlyCSVInOut() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([
            F.family("C0000000-0000-4000-8000-000000000001", code: "HELD23", createdAt: t0),
            F.family("L2", code: "HELD23", createdAt: t0 + F.day, legacy: true, name: "Dupont, l'Aîné"),
            F.family("L3", code: "abc 2!", createdAt: t0 + F.day, legacy: true),
        ], container: container)
        let directory = try TemporaryDirectory("migrate-codes")
        try await NewStore.create(in: directory)
        let applied = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json"])
        #expect(applied.status == 0, "\(applied.stderr)")
        let report = try F.json(applied)
        let path = directory.file("out/new-codes.csv")
        #expect(report.codesFile == "out/new-codes.csv")
        #expect(FileMode.of(path) == 0o600)
        let records = await fixture.emulator.records(container: container)
        let codes = Dictionary(uniqueKeysWithValues: records.map { ($0.recordName, $0.string("code") ?? "") })
        // sqlite3 reads CSV as a spreadsheet would: quoted fields, doubled quotes.
        let imported = try ProcessRunner.run("/usr/bin/sqlite3", [":memory:", "-cmd", ".mode csv", "-cmd", ".import \(path) c", "-cmd", ".mode list",
                                                                  "SELECT family_id, source_record, family_name, new_code, reason FROM c ORDER BY source_record"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let rows = imported.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 2, "\(rows)")
        let l2 = F.copy("L2"), l3 = F.copy("L3")
        #expect(rows.first == "\(l2)|L2|Dupont, l'Aîné|\(codes[l2] ?? "?")|migrate-code-conflict")
        #expect(rows.last == "\(l3)|L3|Family L3|\(codes[l3] ?? "?")|migrate-invalid-code")
        for code in [codes[l2], codes[l3]] {
            let code = try #require(code)
            #expect(code.count >= 6 && !applied.stdout.contains(code), "masked in the report")
        }
    }

    /// On a terminal, each phase of the bar says which it is and where it stands among the run's.
    @Test func theProgressBarLabelsEachPhaseOnATerminal() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("latency=150ms")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed(F.families(30, legacy: true), container: container)
        let directory = try TemporaryDirectory("migrate-terminal")
        try await NewStore.create(in: directory)
        let command = ([tribeboard, "migrate", "legacy-types", "--store", "s.sqlite", "--apply", "--out", "out"] + fixture.remoteArguments)
            .joined(separator: " ")
        let onTerminal = try await ProcessRunner.runAsync("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], in: directory.path)
        #expect(onTerminal.status == 0, "\(onTerminal.stdout)")
        for label in ["reading 1/4  [", "planning 2/4  [", "copying 3/4  [", "verifying 4/4  ["] {
            #expect(onTerminal.stdout.contains(label), "\(label): \(onTerminal.stdout)")
        }
        #expect(onTerminal.stdout.contains("Verification: 90 of 90"), "\(onTerminal.stdout)")
    }

    /// Ctrl-C while the source is read: the run says where it was, that nothing was written and
    /// how to go on, and ends 130 at once (not after the slow reads).
    @Test func ctrlCWhileReadingSaysWhatWasDoneAndExits130() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("latency=2000ms")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed(F.families(5, legacy: true), container: container)
        let before = F.contents(await fixture.emulator.records(container: container))
        let directory = try TemporaryDirectory("migrate-interrupt")
        try await NewStore.create(in: directory)
        let run = try ProcessRunner.start(tribeboard, ["migrate", "legacy-types", "--store", "s.sqlite", "--apply", "--out", "out", "--json"]
                                          + fixture.remoteArguments, in: directory.path)
        // --apply opens the store (its WAL appears) just before reading, after Ctrl-C is handled.
        for _ in 0..<4_000 where !FileManager.default.fileExists(atPath: directory.file("s.sqlite-wal")) { usleep(5_000) }
        try await Task.sleep(for: .milliseconds(500))
        let sent = ContinuousClock.now
        kill(run.pid, SIGINT)
        let result = await Task.detached { run.wait() }.value
        #expect(ContinuousClock.now - sent < .seconds(2), "at once, not after the reads")
        #expect(result.status == 130, "\(result.stdout)\n\(result.stderr)")
        let error = try ErrorDocument(result)
        #expect(error.kind == "migrate.interrupted" && error.exitStatus == 130)
        #expect(error.operation == "reading")
        #expect(result.stderr.contains("interrupted (Ctrl-C) while reading the source (phase reading 1/4")
                && result.stderr.contains("nothing was written") && result.stderr.contains("run the same command again"), "\(result.stderr)")
        #expect(try F.sqlite(directory.file("s.sqlite"), "SELECT count(*) FROM migration_checkpoint") == ["0"])
        #expect(F.contents(await fixture.emulator.records(container: container)) == before)
    }
}
