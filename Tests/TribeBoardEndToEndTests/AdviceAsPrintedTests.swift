import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// Every piece of advice, followed to the letter from the state that printed it: the command is
/// taken from the output, its placeholders filled, and run in the same folder and environment.
@Suite struct AdviceAsPrintedTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer
    typealias F = MigrateFixtures
    let t0 = 1_700_000_000_000.0

    /// The remote as an operator's shell holds it: the TRIBEBOARD_CK_* variables.
    func environment(_ fixture: EmulatorFixture) -> [String: String] {
        ["TRIBEBOARD_CK_KEY_ID": fixture.keyID, "TRIBEBOARD_CK_KEY_FILE": fixture.keyFile, "TRIBEBOARD_CK_BASE_URL": fixture.emulator.baseURL]
    }

    func run(_ arguments: [String], in directory: TemporaryDirectory, _ environment: [String: String] = [:]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments, in: directory.path, environment: environment)
    }

    /// One family provisioned offline and uploaded; its id.
    func uploadedFamily(_ fixture: EmulatorFixture, in directory: TemporaryDirectory, code: String? = nil) async throws -> String {
        try directory.write("in.csv", code.map { "family_name,admin_display_name,code\nOkafor,Ada,\($0)\n" }
            ?? "family_name,admin_display_name\nOkafor,Ada\n")
        let provision = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--json"], in: directory)
        try #require(provision.status == 0, "\(provision.stderr)")
        let resync = try await run(["resync", "--store", "s.sqlite"], in: directory, environment(fixture))
        try #require(resync.status == 0, "\(resync.stderr)")
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        return try #require(try store.strings("SELECT id FROM families").first)
    }

    /// A container typo: nothing at all is found remotely. The likely cause leads, and its check
    /// runs as printed and finds the mismatch; the re-upload comes only after it.
    @Test func aContainerTypoLeadsWithTheContainerNotTheRepair() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("advice-typo")
        _ = try await uploadedFamily(fixture, in: directory)
        try directory.write("in2.csv", "family_name,admin_display_name\nDubois,Paul\n")
        _ = try await run(["provision", "in2.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        _ = try await run(["resync", "--store", "s.sqlite"], in: directory, environment(fixture))
        var typo = environment(fixture)
        typo["TRIBEBOARD_CK_CONTAINER"] = "iCloud.net.dataenvy.Tribeboard"
        let audit = try await run(["audit", "--store", "s.sqlite", "--json"], in: directory, typo)
        let report = try audit.report(AuditReportMirror.self)
        let finding = try #require(report.findings.first { $0.category == "missing-remote" }, "\(audit.stdout)")
        let action = finding.action
        let commands = AsPrinted.commands(in: action)
        #expect(commands.first?.hasPrefix("tribeboard doctor") == true, "the likely cause leads: \(action)")
        #expect(action.hasPrefix("No family at all"), "\(action)")
        let doctorCommand = try #require(commands.first)
        let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/doctor/correct").path
        let doctor = try await AsPrinted.run(doctorCommand + " --json", in: directory.path, replacing: ["PATH": project], environment: typo)
        let checks = try doctor.report(DoctorReportMirror.self).checks
        #expect(checks.first { $0.id == "container.toolkit" }?.status == "failure", "the check names the typo: \(doctor.stdout)")
    }

    /// A newer family of this store holds an older legacy family's code: recode, resync and the
    /// same migration again, each as printed, and the legacy family is migrated.
    @Test func theCodeConflictWayOutRunsAsPrinted() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("advice-conflict")
        let holder = try await uploadedFamily(fixture, in: directory, code: "HELD23")
        await fixture.emulator.seed([F.family("L1", code: "HELD23", createdAt: t0 - F.day, legacy: true)], container: container)
        let plan = try await run(["migrate", "legacy-types", "--store", "s.sqlite", "--json"], in: directory, environment(fixture))
        let l1 = try #require(try F.json(plan).entries.first { $0.sourceName == "L1" })
        #expect(l1.outcome == "code-conflict", "\(plan.stdout)")
        let reason = try #require(l1.reason)
        let steps = AsPrinted.commands(in: reason)
        #expect(steps.count == 2 && steps.first?.hasPrefix("tribeboard recode \(holder)") == true, "\(reason)")
        #expect(!reason.contains("audit --repair"), "the audit cannot see the other side of this conflict: \(reason)")
        for step in steps {
            let result = try await AsPrinted.run(step, in: directory.path, replacing: ["DIR": "recode-out"], environment: environment(fixture))
            #expect(result.status == 0, "\(step): \(result.stderr)")
        }
        let again = try await run(["migrate", "legacy-types", "--store", "s.sqlite", "--apply", "--out", "mout", "--json"], in: directory,
                                  environment(fixture))
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        #expect(try F.json(again).entries.first { $0.sourceName == "L1" }?.outcome == "copied")
    }

    /// `--delete-source` blocked by the older holder of a code: never "delete it".
    @Test func aBlockedDeletionNeverAdvisesDeletingTheOlderFamily() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("advice-older")
        _ = try await uploadedFamily(fixture, in: directory, code: "HELD23")
        await fixture.emulator.seed([F.family("L1", code: "HELD23", createdAt: t0 - F.day, legacy: true)], container: container)
        let blocked = try await run(["migrate", "legacy-types", "--store", "s.sqlite", "--apply", "--out", "mout", "--delete-source", "--json"],
                                    in: directory, environment(fixture))
        #expect(blocked.status == 1)
        let refused = try #require(try F.json(blocked).deletionRefused)
        #expect(!refused.contains("CloudKit Console"), "the older family keeps its code: \(refused)")
        #expect(refused.contains("older holder") && refused.contains("--keep-source L1"), "\(refused)")
    }

    /// A legacy membership an app user wrote: the key may not delete it. The run deletes what
    /// nothing that stays points at, keeps that membership with its family and profile, says so,
    /// and prints the command that finishes; that command, as printed, ends 0.
    @Test func aMigrationWithAppOwnedRecordsFinishesKeepingExactlyThose() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        var appOwned = F.membership("M2", family: "L2", user: "P2", legacy: true)
        appOwned.created = CloudKitRecord.Stamp(timestamp: Int64(t0), userRecordName: "_app_user_1")
        await fixture.emulator.seed([
            F.family("L1", code: "OWN234", createdAt: t0, legacy: true), F.profile("P1", legacy: true),
            F.membership("M1", family: "L1", user: "P1", legacy: true),
            F.family("L2", code: "OWN567", createdAt: t0, legacy: true), F.profile("P2", legacy: true), appOwned,
        ], container: container)
        let directory = try TemporaryDirectory("advice-app-owned")
        try await NewStore.create(in: directory)
        let legacyNames = { await fixture.emulator.records(container: self.container).filter { $0.recordType?.hasPrefix("CK") == true }.map(\.recordName).sorted() }
        let first = try await run(["migrate", "legacy-types", "--store", "s.sqlite", "--apply", "--out", "out", "--delete-source", "--json"],
                                  in: directory, environment(fixture))
        #expect(first.status == 1, "\(first.stderr)")
        let report = try F.json(first)
        #expect(report.keepToFinish == ["M2"], "\(report.deletionRefused ?? "")")
        #expect(await legacyNames() == ["L2", "M2", "P2"], "nothing left pointing at a deleted record")
        let next = try #require(report.next)
        #expect(next.hasSuffix("--keep-source M2"), "\(next)")
        let finish = try await AsPrinted.run(next, in: directory.path, environment: environment(fixture))
        #expect(finish.status == 0, "\(finish.stdout) \(finish.stderr)")
        let finished = try F.json(finish)
        #expect(finished.deletionRefused == nil && finished.verification?.mismatched == 0)
        #expect(Set(finished.entries.filter { $0.sourceKept != nil }.map(\.sourceName)) == ["L2", "M2", "P2"], "kept, and said so")
        #expect(await legacyNames() == ["L2", "M2", "P2"])
    }

    /// A run that deleted a legacy family and was stopped before its checkpoint said so (or an
    /// older toolkit's run): the membership's copy still points at the family's copy, so later
    /// runs verify it and finish, instead of ending 1 for ever.
    @Test func aSourceDeletedEarlierNeverFailsLaterRuns() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([
            F.family("L1", code: "OWN234", createdAt: t0, legacy: true), F.profile("P1", legacy: true),
            F.membership("M1", family: "L1", user: "P1", legacy: true),
        ], container: container)
        let directory = try TemporaryDirectory("advice-deleted-earlier")
        try await NewStore.create(in: directory)
        let arguments = ["migrate", "legacy-types", "--store", "s.sqlite", "--apply", "--out", "out", "--json"]
        let copied = try await run(arguments, in: directory, environment(fixture))
        try #require(copied.status == 0, "\(copied.stderr)")
        let client = try fixture.client()
        _ = try await client.modify([CloudKitOperation(.forceDelete, CloudKitRecord(recordName: "L1", recordType: "CKFamily", fields: [:]))])
        let again = try await run(arguments + ["--delete-source"], in: directory, environment(fixture))
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        #expect(try F.json(again).verification?.mismatched == 0)
    }

    /// A container set up from the schema file (imported and deployed, emulator recipe 2) that
    /// still holds legacy records: the audit and the migration read them, and the migration's
    /// copies are no invalid-format finding afterwards.
    @Test func theSchemaFileCoversLegacyRecords() async throws {
        let fixture = try await EmulatorFixture.start(try .templateContainer())
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([
            F.family("L1", code: "ab-234", createdAt: t0, legacy: true), F.profile("P1", legacy: true),
            F.membership("M1", family: "L1", user: "P1", legacy: true),
        ], container: container)
        let directory = try TemporaryDirectory("advice-legacy-schema")
        _ = try await uploadedFamily(fixture, in: directory)
        let before = try await run(["audit", "--store", "s.sqlite", "--json"], in: directory, environment(fixture))
        #expect(before.status != 78, "\(before.stderr)")
        let findings = try before.report(AuditReportMirror.self).findings
        #expect(findings.contains { $0.category == "legacy-record" } && findings.contains { $0.category == "invalid-format" })
        let migrated = try await run(["migrate", "legacy-types", "--store", "s.sqlite", "--apply", "--out", "mout", "--json"], in: directory,
                                     environment(fixture))
        #expect(migrated.status == 0, "\(migrated.stdout) \(migrated.stderr)")
        let after = try await run(["audit", "--store", "s.sqlite", "--json"], in: directory, environment(fixture))
        let left = try after.report(AuditReportMirror.self).findings
        #expect(!left.contains { $0.category == "invalid-format" }, "the migration gave it a new code: \(left.map(\.message))")
    }
}

extension AdviceAsPrintedTests {
    /// `make demo`'s shape: the store in a folder of its own. Provision's "run resync" names that
    /// store, so, once a remote is configured, it uploads what provision left waiting.
    @Test func provisionsResyncAdviceNamesItsStore() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("advice-provision-resync")
        try directory.write("in.csv", "family_name,admin_display_name\nOkafor,Ada\nNguyen,Bao\n")
        try FileManager.default.createDirectory(atPath: directory.file("demo-out"), withIntermediateDirectories: false)
        let provision = try await run(["provision", "in.csv", "--store", "demo-out/tribeboard.sqlite", "--out", "demo-out"], in: directory)
        try #require(provision.status == 0, "\(provision.stderr)")
        let waiting = try #require(provision.stdout.split(separator: "\n").first { $0.hasPrefix("Waiting for resync") })
        let advice = try #require(AsPrinted.commands(in: String(waiting)).first, "\(waiting)")
        let resync = try await AsPrinted.run(advice, in: directory.path, environment: environment(fixture))
        #expect(resync.status == 0, "\(advice): \(resync.stderr)")
        #expect(await fixture.emulator.records(container: container).filter { $0.recordType == "Family" }.count == 2)
    }
}
