import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardMigrate
import TribeBoardTestSupport

/// `tribeboard migrate legacy-types` against the emulator: the real binary, records checked in the
/// emulator, QR codes with zbarimg, the store with sqlite3.
@Suite struct MigrateLegacyTypesTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer
    typealias F = MigrateFixtures

    /// A current family holding HELD23, and three legacy families: L1 (own code), L2 (HELD23, newer
    /// than the current holder), with two profiles and three memberships.
    func seeded(_ fixture: EmulatorFixture) async {
        let t0 = 1_700_000_000_000.0
        await fixture.emulator.seed([
            F.family("C0000000-0000-4000-8000-000000000001", code: "HELD23", createdAt: t0),
            F.profile("C0000000-0000-4000-8000-000000000002"),
            F.membership("C0000000-0000-4000-8000-000000000003", family: "C0000000-0000-4000-8000-000000000001", user: "C0000000-0000-4000-8000-000000000002"),
            F.family("L1", code: "OWN234", createdAt: t0 - F.day, legacy: true),
            F.family("L2", code: "HELD23", createdAt: t0 + F.day, legacy: true),
            F.profile("P1", legacy: true),
            F.profile("P2", legacy: true),
            F.membership("M1", family: "L1", user: "P1", legacy: true),
            F.membership("M2", family: "L2", user: "P2", legacy: true),
            F.membership("M3", family: "L1", user: "P2", role: "adult", legacy: true),
        ], container: container)
    }

    func migrate(_ fixture: EmulatorFixture, _ directory: TemporaryDirectory, _ extra: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, ["migrate", "legacy-types", "--store", "s.sqlite"] + fixture.remoteArguments + extra,
                                         in: directory.path)
    }

    @Test func legacyRecordsBecomeCurrentWithEveryReferenceRightAndNoDuplicateCode() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await seeded(fixture)
        let directory = try TemporaryDirectory("migrate-legacy")
        let before = F.contents(await fixture.emulator.records(container: container))

        let plan = try await migrate(fixture, directory, ["--json"])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(F.counts(try F.json(plan))["would-copy"] == 7)
        #expect(F.contents(await fixture.emulator.records(container: container)) == before, "a plan writes nothing")
        #expect(!FileManager.default.fileExists(atPath: directory.file("s.sqlite")), "a plan creates no store")
        try await NewStore.create(in: directory)

        let applied = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json", "--show-codes"])
        #expect(applied.status == 0, "\(applied.stderr)")
        let report = try F.json(applied)
        #expect(F.counts(report)["copied"] == 7)
        #expect(report.verification?.mismatched == 0)

        let after = await fixture.emulator.records(container: container)
        let byName = Dictionary(uniqueKeysWithValues: after.map { ($0.recordName, $0) })
        // The legacy records are intact.
        for name in ["L1", "L2", "P1", "P2", "M1", "M2", "M3"] { #expect(byName[name].map { F.contents([$0]) } == before.filter { $0.key == name }) }
        let families = after.filter { $0.recordType == "Family" }
        #expect(families.count == 3)
        let codes = families.compactMap { $0.string("code") }
        #expect(Set(codes).count == codes.count, "no duplicate code: \(codes)")
        let l1 = try #require(byName[F.copy("L1")])
        #expect(l1.string("code") == "OWN234" && l1.recordType == "Family")
        let l2 = try #require(byName[F.copy("L2")])
        let newCode = try #require(l2.string("code"))
        #expect(newCode != "HELD23" && newCode.wholeMatch(of: /[A-Z0-9]{6,8}/) != nil)
        #expect(byName["C0000000-0000-4000-8000-000000000001"]?.string("code") == "HELD23", "the older holder keeps its code")
        // Every current membership references a current family and profile that exist.
        let memberships = after.filter { $0.recordType == "Membership" }
        #expect(memberships.count == 4)
        for membership in memberships {
            let family = membership.fields?["family"]?.value.object?["recordName"]?.string ?? ""
            let user = membership.fields?["user"]?.value.object?["recordName"]?.string ?? ""
            #expect(byName[family]?.recordType == "Family", "\(membership.recordName) -> \(family)")
            #expect(byName[user]?.recordType == "UserProfile", "\(membership.recordName) -> \(user)")
        }
        let m3 = try #require(byName[F.copy("M3")])
        #expect(m3.fields?["family"]?.value.object?["recordName"]?.string == F.copy("L1"))
        #expect(m3.fields?["user"]?.value.object?["recordName"]?.string == F.copy("P2"))

        // The re-coded family's QR code holds its new code, owner-only.
        let png = directory.file("out/qr/\(F.copy("L2")).png")
        #expect(try QRReader.decode([png]) == [newCode])
        #expect(FileMode.of(png) == 0o600)

        // The store knows the migrated families as already in CloudKit, and the repair.
        let store = directory.file("s.sqlite")
        #expect(try F.sqlite(store, "SELECT id || '|' || code || '|' || needs_sync || '|' || ck_record_id FROM families ORDER BY code").sorted()
                == ["\(F.copy("L1"))|OWN234|0|\(F.copy("L1"))", "\(F.copy("L2"))|\(newCode)|0|\(F.copy("L2"))"].sorted())
        #expect(try F.sqlite(store, "SELECT family_id || '|' || old_code || '|' || new_code || '|' || kept_by FROM code_repairs")
                == ["\(F.copy("L2"))|HELD23|\(newCode)|C0000000-0000-4000-8000-000000000001"])
        #expect(try F.sqlite(store, "SELECT COUNT(*) FROM memberships WHERE needs_sync = 0") == ["3"])
        #expect(try F.sqlite(store, "SELECT COUNT(*) FROM user_profiles") == ["2"])

        // A second run changes nothing.
        let snapshot = F.contents(await fixture.emulator.records(container: container))
        let rerun = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(F.counts(try F.json(rerun))["copied"] == 0)
        #expect(F.counts(try F.json(rerun))["checkpointed"] == 7)
        #expect(F.contents(await fixture.emulator.records(container: container)) == snapshot)
        #expect(try F.sqlite(store, "SELECT COUNT(*) FROM code_repairs") == ["1"])
        let rerunL2 = try F.json(rerun).entries.first { $0.sourceName == "L2" }
        #expect(rerunL2?.recode?.keptBy == "C0000000-0000-4000-8000-000000000001")

        // Another store (no checkpoint): the copies are found, the re-coded one with its code.
        try await NewStore.create("other.sqlite", in: directory)
        let elsewhere = try await ProcessRunner.runAsync(tribeboard, ["migrate", "legacy-types", "--store", "other.sqlite", "--apply", "--out", "out2",
                                                                      "--json", "--show-codes"] + fixture.remoteArguments, in: directory.path)
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        #expect(F.counts(try F.json(elsewhere))["identical"] == 7)
        #expect(F.contents(await fixture.emulator.records(container: container)) == snapshot)
        #expect(try F.sqlite(directory.file("other.sqlite"), "SELECT code FROM families WHERE id = '\(F.copy("L2"))'") == [newCode])
    }

    @Test func anOlderLegacyFamilyWhoseCodeANewerFamilyHoldsIsAConflictNotADuplicate() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let t0 = 1_700_000_000_000.0
        await fixture.emulator.seed([
            F.family("C0000000-0000-4000-8000-000000000001", code: "HELD23", createdAt: t0),
            F.family("L1", code: "HELD23", createdAt: t0 - F.day, legacy: true),
            F.family("L2", code: "FREE23", createdAt: t0, legacy: true),
            F.profile("P1", legacy: true),
            F.membership("M1", family: "L1", user: "P1", legacy: true),
        ], container: container)
        let directory = try TemporaryDirectory("migrate-older")
        try await NewStore.create(in: directory)
        let result = try await migrate(fixture, directory, ["--apply", "--out", "out", "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try F.json(result)
        let entries = report.entries
        let outcome = { (name: String) in entries.first { $0.sourceName == name }?.outcome }
        #expect(outcome("L1") == "code-conflict")
        #expect(outcome("M1") == "skipped", "its family was not migrated")
        #expect(outcome("L2") == "copied")
        let families = await fixture.emulator.records(container: container).filter { $0.recordType == "Family" }
        #expect(families.filter { $0.string("code") == "HELD23" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.file("out/qr")), "nobody was re-coded")
    }

    @Test func reportPolicyListsANewerFamilyInsteadOfRecodingIt() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await seeded(fixture)
        let directory = try TemporaryDirectory("migrate-report")
        try await NewStore.create(in: directory)
        let result = try await migrate(fixture, directory, ["--apply", "--on-code-conflict", "report", "--csv"])
        #expect(result.status == 1, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\r\n").map(String.init)
        #expect(rows.first?.hasPrefix("kind,source_name,source_type,destination_name") == true)
        #expect(rows.contains { $0.hasPrefix("family,L2,CKFamily,") && $0.contains(",code-conflict,") })
        #expect(rows.contains { $0.hasPrefix("membership,M2,") && $0.contains(",skipped,") })
        let records = await fixture.emulator.records(container: container)
        #expect(records.filter { $0.string("code") == "HELD23" && $0.recordType == "Family" }.count == 1)
        #expect(records.first { $0.recordName == F.copy("L2") } == nil)
    }

    @Test func deleteSourceOnlyOnceEveryCopyIsVerified() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await seeded(fixture)
        // A different record already holds the name of P1's copy: a conflict, so nothing is deleted.
        var squatter = F.profile(F.copy("P1"))
        squatter.fields?["displayName"] = .string("Someone else")
        await fixture.emulator.seed([squatter], container: container)
        let directory = try TemporaryDirectory("migrate-delete")
        try await NewStore.create(in: directory)
        let refused = try await migrate(fixture, directory, ["--apply", "--delete-source", "--out", "out", "--json"])
        #expect(refused.status == 1, "\(refused.stderr)")
        let report = try F.json(refused)
        #expect(report.deletionRefused != nil)
        #expect(report.sourceDeleted == 0)
        var records = await fixture.emulator.records(container: container)
        let legacyKept = records.filter { ($0.recordType ?? "").hasPrefix("CK") }
        #expect(legacyKept.count == 7, "every legacy record kept")
        #expect(records.first { $0.recordName == F.copy("P1") }?.string("displayName") == "Someone else", "never overwritten")

        // Someone puts the right copy there: now everything verifies.
        await fixture.emulator.seed([CloudKitRecord(recordName: F.copy("P1"), recordType: "UserProfile", fields: F.profile("P1").fields ?? [:])],
                                    container: container)
        let deleted = try await migrate(fixture, directory, ["--apply", "--delete-source", "--out", "out", "--json"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try F.json(deleted).sourceDeleted == 7)
        records = await fixture.emulator.records(container: container)
        let legacyLeft = records.filter { ($0.recordType ?? "").hasPrefix("CK") }
        #expect(legacyLeft.isEmpty)
        #expect(records.filter { $0.recordType == "Family" }.count == 3)
        #expect(records.filter { $0.recordType == "Membership" }.count == 4)
    }

    /// A membership joined in the app while the migration runs has no copy: deleting its legacy
    /// family would take it too (DELETE_SELF). Nothing is deleted, the run says why and ends 1.
    @Test func aLegacyRecordAddedDuringTheRunStopsTheDeletion() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("latency=150ms")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([F.family("L1", code: "OWN234", createdAt: 1_700_000_000_000, legacy: true), F.profile("P1", legacy: true),
                                     F.membership("M1", family: "L1", user: "P1", legacy: true)], container: container)
        let directory = try TemporaryDirectory("migrate-delete-race")
        try await NewStore.create(in: directory)
        let run = try ProcessRunner.start(tribeboard, ["migrate", "legacy-types", "--store", "s.sqlite", "--apply", "--delete-source", "--out", "out", "--json"]
                                                      + fixture.remoteArguments, in: directory.path)
        // The source was read once the first copy exists; the deletion reads it again later.
        for _ in 0..<400 where await fixture.emulator.records(container: container).first(where: { $0.recordName == F.copy("L1") }) == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        await fixture.emulator.seed([F.membership("M9", family: "L1", user: "P1", role: "adult", legacy: true)], container: container)
        while run.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        let result = run.wait()
        #expect(result.status == 1, "\(result.stderr)")
        let refused = try F.json(result).deletionRefused
        #expect(refused?.contains("added after this run read the source (M9, CKMembership)") == true, "\(refused ?? "none")")
        let names = Set(await fixture.emulator.records(container: container).map(\.recordName))
        #expect(names.isSuperset(of: ["L1", "P1", "M1", "M9"]), "nothing deleted: \(names.sorted())")
    }

    @Test func usageAndRemoteFailuresHaveTheirStatuses() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("down")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("migrate-status")
        #expect(try await migrate(fixture, directory, ["--apply"]).status == 64, "--apply needs --out")
        #expect(try await migrate(fixture, directory, ["--delete-source"]).status == 64, "--delete-source needs --apply")
        #expect(try await migrate(fixture, directory, ["--csv", "--json"]).status == 64)
        #expect(try await ProcessRunner.runAsync(tribeboard, ["migrate", "legacy-types", "--store", "s.sqlite"], in: directory.path).status == 78,
                "no remote configured")
        #expect(try await migrate(fixture, directory, []).status == 75, "CloudKit down")
    }
}
