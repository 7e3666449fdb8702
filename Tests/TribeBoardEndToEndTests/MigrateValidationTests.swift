import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// `migrate` refuses what the app's rules refuse, gives codes outside the wire format or differing
/// only in case a new code, and checks references before sending (the lead's hostile findings).
@Suite struct MigrateValidationTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer
    typealias F = MigrateFixtures
    let t0 = 1_700_000_000_000.0

    func migrate(_ fixture: EmulatorFixture, _ directory: TemporaryDirectory, _ extra: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, ["migrate", "legacy-types", "--store", "s.sqlite"] + fixture.remoteArguments + extra,
                                         in: directory.path)
    }

    func entries(_ result: ProcessRunner.Result) throws -> [String: MigrateReportMirror.Entry] {
        try F.json(result).byName
    }

    @Test func invalidSourceRecordsAreNotCopiedAndTheStoreNeverLearnsThem() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        var intCode = F.family("L3", code: "INTC23", createdAt: t0, legacy: true)
        intCode.fields?["code"] = CloudKitRecord.Field(value: .number(42), type: "INT64")
        var farDate = F.family("L4", code: "FAR234", createdAt: t0, legacy: true)
        farDate.fields?["createdAt"] = CloudKitRecord.Field(value: .number(1e300), type: "TIMESTAMP")
        var badRole = F.membership("M2", family: "L1", user: "P1", role: "owner", legacy: true)
        badRole.fields?["joinedAt"] = nil
        await fixture.emulator.seed([
            F.family("L1", code: "GOOD23", createdAt: t0, legacy: true),
            F.profile("P1", legacy: true),
            F.membership("M1", family: "L1", user: "P1", legacy: true),
            badRole, intCode, farDate,
            CloudKitRecord(recordName: "L5", recordType: "CKFamily", fields: [:]),
            F.membership("M4", family: "L4", user: "P1", role: "adult", legacy: true),
        ], container: container)
        let directory = try TemporaryDirectory("migrate-invalid")
        try await NewStore.create(in: directory)
        let result = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(F.counts(try F.json(result))["invalid"] == 4)
        let byName = try entries(result)
        for name in ["L3", "L4", "L5", "M2"] { #expect(byName[name]?.outcome == "invalid", "\(name)") }
        let reason = { (name: String) in byName[name]?.reason ?? "" }
        #expect(reason("L3").contains("code is a INT64") && !reason("L3").contains("42"))
        #expect(reason("L4").contains("createdAt is out of range"))
        #expect(reason("L5").contains("name is missing") && reason("L5").contains("createdAt is missing"))
        #expect(reason("M2").contains("role") && reason("M2").contains("joinedAt is missing"))
        #expect(byName["M4"]?.outcome == "skipped", "its family is invalid")
        for name in ["L1", "P1", "M1"] { #expect(byName[name]?.outcome == "copied", "\(name)") }

        let records = await fixture.emulator.records(container: container)
        #expect(records.filter { $0.recordType == "Family" }.map(\.recordName) == [F.copy("L1")])
        #expect(records.filter { $0.recordType == "Membership" }.map(\.recordName) == [F.copy("M1")])
        let store = directory.file("s.sqlite")
        #expect(try F.sqlite(store, "SELECT id FROM families") == [F.copy("L1")])
        #expect(try F.sqlite(store, "SELECT COUNT(*) FROM families WHERE created_at < '2000'") == ["0"])

        let csv = try await migrate(fixture, directory, ["--csv"])
        #expect(csv.stdout.split(separator: "\r\n").contains { $0.hasPrefix("family,L4,CKFamily,") && $0.contains(",invalid,") })
    }

    @Test func aCodeOutsideTheWireFormatIsRecodedOrReported() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([
            F.family("L1", code: "abc 2!", createdAt: t0, legacy: true),
            F.family("L2", code: "abc234", createdAt: t0 + 1000, legacy: true),
        ], container: container)
        let reportDirectory = try TemporaryDirectory("migrate-wire-report")
        try await NewStore.create(in: reportDirectory)
        let reported = try await migrate(fixture, reportDirectory, ["--apply", "--on-code-conflict", "report", "--json"])
        #expect(reported.status == 1, "\(reported.stderr)")
        let listed = try entries(reported)
        #expect(listed["L1"]?.outcome == "code-conflict")
        #expect(listed["L2"]?.outcome == "code-conflict")
        #expect(!reported.stdout.contains("abc"), "codes masked")
        #expect(await fixture.emulator.records(container: container).filter { $0.recordType == "Family" }.isEmpty)

        let directory = try TemporaryDirectory("migrate-wire")

        try await NewStore.create(in: directory)
        let result = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json", "--show-codes"])
        #expect(result.status == 0, "\(result.stderr)")
        let families = await fixture.emulator.records(container: container).filter { $0.recordType == "Family" }
        #expect(families.count == 2)
        let codes = families.compactMap { $0.string("code") }
        #expect(codes.allSatisfy { $0.wholeMatch(of: /[A-Z0-9]{6,8}/) != nil }, "\(codes)")
        #expect(Set(codes).count == 2)
        for name in ["L1", "L2"] {
            let copy = F.copy(name)
            let code = try #require(families.first { $0.recordName == copy }?.string("code"))
            #expect(try QRReader.decode([directory.file("out/qr/\(copy).png")]) == [code])
            #expect(try F.sqlite(directory.file("s.sqlite"), "SELECT new_code || '|' || reason FROM code_repairs WHERE family_id = '\(copy)'")
                    == ["\(code)|migrate-invalid-code"])
        }
        #expect(try entries(result)["L2"]?.recode?.reason == "migrate-invalid-code")
    }

    @Test func codesDifferingOnlyInCaseAreOneCodeAndTheAuditFindsNoDuplicate() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let holder = "C0000000-0000-4000-8000-000000000001"
        await fixture.emulator.seed([
            F.family(holder, code: "xyz789", createdAt: t0 - F.day),
            F.family("L1", code: "XYZ789", createdAt: t0, legacy: true),
            F.family("L2", code: "ABC234", createdAt: t0, legacy: true),
            F.family("L3", code: " ABC234", createdAt: t0 + 1000, legacy: true),
        ], container: container)
        let directory = try TemporaryDirectory("migrate-case")
        try await NewStore.create(in: directory)
        let result = try await migrate(fixture, directory, ["--apply", "--delete-source", "--out", "out", "--json", "--show-codes"])
        #expect(result.status == 0, "\(result.stderr)")
        let byName = try entries(result)
        let l1 = byName["L1"]?.recode
        #expect(l1?.keptBy == holder && l1?.reason == "migrate-code-conflict", "xyz789 is XYZ789 to the people typing it")
        #expect(byName["L2"]?.recode == nil, "the oldest keeps its code")
        #expect(byName["L3"]?.recode?.reason == "migrate-invalid-code")
        let families = await fixture.emulator.records(container: container).filter { $0.recordType == "Family" }
        let keys = families.compactMap { $0.string("code")?.trimmingCharacters(in: .whitespaces).uppercased() }
        #expect(Set(keys).count == keys.count, "\(keys)")

        let audit = try await ProcessRunner.runAsync(tribeboard, ["audit", "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory.path)
        let findings = try audit.report(AuditReportMirror.self).findings
        let copies = Set(["L1", "L2", "L3"].map(F.copy))
        let created = findings.filter { finding in
            let category = finding.category
            let ids = finding.families.map(\.id)
            return (category.hasPrefix("duplicate-") || category == "case-only-twins" || category == "invalid-format") && ids.contains(where: copies.contains)
        }
        #expect(created.isEmpty, "\(created)")
    }

    @Test func aMembershipWhoseReferenceExistsNowhereIsSkippedUpFront() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let current = "C0000000-0000-4000-8000-000000000001"
        await fixture.emulator.seed([
            F.family(current, code: "CURR23", createdAt: t0),
            F.profile("P1", legacy: true),
            F.membership("M1", family: "A0000000-0000-4000-8000-00000000FFFF", user: "P1", legacy: true),
            F.membership("M2", family: current, user: "P1", role: "adult", legacy: true),
            F.membership("M3", family: "P1", user: "P1", role: "adult", legacy: true),
        ], container: container)
        let directory = try TemporaryDirectory("migrate-orphan")
        try await NewStore.create(in: directory)
        let result = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let byName = try entries(result)
        #expect(byName["M1"]?.outcome == "skipped")
        #expect(byName["M1"]?.reason?.contains("exists nowhere") == true)
        #expect(byName["M2"]?.outcome == "copied", "its family is at the destination")
        #expect(byName["M3"]?.outcome == "skipped", "its family reference names a profile")
        #expect(F.counts(try F.json(result))["failed"] == 0)
        let memberships = await fixture.emulator.records(container: container).filter { $0.recordType == "Membership" }
        #expect(memberships.map(\.recordName) == [F.copy("M2")])
    }

    @Test func deleteSourceIsListedWithTheMigrationOptions() throws {
        let help = try ProcessRunner.run(tribeboard, ["migrate", "legacy-types", "--help"])
        let lines = help.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("MIGRATION") })
        let flag = try #require(lines.firstIndex { $0.contains("--delete-source") })
        #expect(flag > header)
        #expect(!lines[(header + 1)..<flag].contains { !$0.hasPrefix(" ") && !$0.isEmpty }, "no other section between: \(help.stdout)")
    }

    /// Only provision creates a store: `--apply` at a path where none is ends 74, creates nothing
    /// and writes nothing to CloudKit; the command its message prints makes the store, as printed
    /// in a shell, and the same migration then fills it.
    @Test func applyRefusesAMissingStoreAndItsAdviceRunsAsPrinted() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([F.family("L1", code: "GOOD23", createdAt: t0, legacy: true)], container: container)
        let before = F.contents(await fixture.emulator.records(container: container))
        let directory = try TemporaryDirectory("migrate-missing-store")
        let refused = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json"])
        #expect(refused.status == 74, "\(refused.stderr)")
        let error = try ErrorDocument(refused)
        #expect(error.kind == "store.cannotOpen" && error.path == directory.file("s.sqlite"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "no store, no lock, no --out")
        #expect(F.contents(await fixture.emulator.records(container: container)) == before, "nothing written to CloudKit")
        let printed = error.message.split(separator: "`").map(String.init)
        let make = try #require(printed.first { $0.hasPrefix("echo family_name | tribeboard provision") }, "\(error.message)")
        let shell = try await ProcessRunner.runAsync("/bin/sh", ["-c", make], in: directory.path,
                                                     environment: ["PATH": ProcessRunner.productsDirectory + ":/usr/bin:/bin"])
        #expect(shell.status == 0, "\(make): \(shell.stderr)")
        let applied = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try F.sqlite(directory.file("s.sqlite"), "SELECT count(*) FROM families") == ["1"], "the store learned the family")
    }

    /// An empty (0-byte) store file holds no store yet: a plan reads nothing from it
    /// (not "cannot write: no such table"), and --apply makes the store in it.
    @Test func anEmptyStoreFileIsPlannedAsNoStoreYet() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([F.family("L1", code: "GOOD23", createdAt: t0, legacy: true)], container: container)
        let directory = try TemporaryDirectory("migrate-empty-store")
        try directory.write("s.sqlite", "")
        let plan = try await migrate(fixture, directory, ["--json"])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(!plan.stderr.contains("no such table") && !plan.stderr.contains("cannot write"), "\(plan.stderr)")
        #expect(F.counts(try F.json(plan))["would-copy"] == 1)
        let apply = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json"])
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(try F.sqlite(directory.file("s.sqlite"), "SELECT count(*) FROM families") == ["1"], "the store learned the family")
    }

    /// A store a newer toolkit migrated is named as such, not
    /// sent round again with "run it again to resume from the checkpoint"; nothing is copied.
    @Test(arguments: [false, true])
    func aStoreFromANewerToolkitSaysSo(apply: Bool) async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([F.family("L1", code: "GOOD23", createdAt: t0, legacy: true)], container: container)
        let directory = try TemporaryDirectory("migrate-newer-store")
        try await NewStore.create(in: directory)
        #expect(try await migrate(fixture, directory, ["--apply", "--out", "out"]).status == 0)
        let insert = try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"), "INSERT INTO grdb_migrations VALUES ('v99-from-a-newer-toolkit')"])
        try #require(insert.status == 0, "\(insert.stderr)")
        let before = await fixture.emulator.records(container: container).count
        let result = try await migrate(fixture, directory, apply ? ["--apply", "--out", "out", "--json"] : ["--json"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("this store is newer than this toolkit") && result.stderr.contains("v99-from-a-newer-toolkit"), "\(result.stderr)")
        #expect(!result.stderr.contains("resume from the checkpoint"), "\(result.stderr)")
        #expect(try ErrorDocument(result).kind == "store.newerSchema")
        #expect(await fixture.emulator.records(container: container).count == before, "nothing written")
    }
}
