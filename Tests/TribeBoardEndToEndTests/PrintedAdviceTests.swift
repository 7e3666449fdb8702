import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// Advice that used to be prose ("`tribeboard resync`", "`tribeboard remove ID --apply`") and
/// now comes from the catalogue, run as printed from the state that printed it. The store's name
/// starts with `-` and holds a space, so a command that does not name it, names it unquoted, or
/// writes it where it reads as an option, fails here; the
/// remote is given as flags and the advice runs without TRIBEBOARD_CK_* variables.
@Suite(.serialized) struct PrintedAdviceTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    static let store = "-my store.sqlite"

    struct Setup {
        let fixture: EmulatorFixture
        let directory: TemporaryDirectory
        /// External id -> family id.
        let families: [String: String]
    }

    func run(_ arguments: [String], _ setup: Setup) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments + ["--store=\(Self.store)"] + setup.fixture.remoteArguments,
                                         in: setup.directory.path)
    }

    /// Families provisioned from `csv` (not uploaded).
    func provisioned(_ csv: String, _ name: String) async throws -> Setup {
        let fixture = try await EmulatorFixture.start()
        let directory = try TemporaryDirectory(name)
        try directory.write("in.csv", csv)
        let provision = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store=\(Self.store)", "--out", "out", "-q"],
                                                         in: directory.path)
        try #require(provision.status == 0, "\(provision.stderr)")
        let ids = try StoreInspector(path: directory.file(Self.store)).rows("SELECT id, substr(import_key, 5) AS ext FROM families")
        return Setup(fixture: fixture, directory: directory,
                     families: Dictionary(uniqueKeysWithValues: ids.map { ($0["ext"] ?? "", $0["id"] ?? "") }))
    }

    func sqlite(_ setup: Setup, _ statement: String) throws {
        let result = try ProcessRunner.run("/usr/bin/sqlite3", [setup.directory.file(Self.store), statement])
        try #require(result.status == 0, "\(result.stderr)")
    }

    func asPrinted(_ command: String, _ setup: Setup, _ placeholders: [String: String] = [:]) async throws -> ProcessRunner.Result {
        try await AsPrinted.run(command, in: setup.directory.path, replacing: placeholders)
    }

    /// Resync's summary of a creation that did not complete: its `remove` and `doctor family`
    /// run as printed, and the next resync has nothing held back.
    @Test func resyncsUnfinishedCreationAdviceRunsAsPrinted() async throws {
        let setup = try await provisioned("external_id,family_name\nH-1,Half\nW-1,Whole\n", "printed-unfinished")
        defer { Task { await setup.fixture.emulator.stop() } }
        let half = try #require(setup.families["H-1"])
        try sqlite(setup, "DELETE FROM creation_log WHERE family_id = '\(half)' AND state = 'completed'")
        let resync = try await run(["resync"], setup)
        #expect(resync.status == 1, "held back: \(resync.stdout) \(resync.stderr)")
        let steps = AsPrinted.commands(in: resync.stdout)
        let remove = try #require(steps.first { $0.hasPrefix("tribeboard remove ") }, "\(resync.stdout)")
        let look = try #require(steps.first { $0.hasPrefix("tribeboard doctor family ") }, "\(resync.stdout)")
        let doctor = try await asPrinted(look + " --json", setup, ["ID": half])
        #expect(try doctor.report(FamilyReportMirror.self).family?.name == "Half", "\(look): \(doctor.stdout) \(doctor.stderr)")
        let removed = try await asPrinted(remove + " --json", setup, ["ID": half])
        #expect(removed.status == 0, "\(remove): \(removed.stderr)")
        #expect(try removed.report(RemoveReportMirror.self).removed == 1)
        let again = try await run(["resync"], setup)
        #expect(again.status == 0, "nothing held back after the removal: \(again.stdout) \(again.stderr)")
    }

    /// Two local families sharing a code: the audit's repair, its plan and the one-family recode
    /// run as printed; the repair's "they wait for" command uploads the new code.
    @Test func theAuditsRepairAdviceRunsAsPrinted() async throws {
        let setup = try await provisioned("external_id,family_name\nA-1,Older\nB-1,Newer\n", "printed-repair")
        defer { Task { await setup.fixture.emulator.stop() } }
        let (older, newer) = (try #require(setup.families["A-1"]), try #require(setup.families["B-1"]))
        try sqlite(setup, "DROP INDEX families_code; UPDATE families SET code = (SELECT code FROM families WHERE id = '\(older)') "
                   + "WHERE id = '\(newer)'")
        let audit = try await run(["audit", "--json"], setup)
        let finding = try #require(try audit.report(AuditReportMirror.self).findings.first { $0.category == "duplicate-local" },
                                   "\(audit.stdout)")
        let steps = AsPrinted.commands(in: finding.action)
        let plan = try #require(steps.first { $0.hasSuffix(" --repair") }, "\(finding.action)")
        let recode = try #require(steps.first { $0.hasPrefix("tribeboard recode ") }, "\(finding.action)")
        let repair = try #require(steps.first { $0.hasSuffix("--repair --apply --out DIR") }, "\(finding.action)")
        let planned = try await asPrinted(plan + " --json", setup)
        #expect(try planned.report(AuditReportMirror.self).repair?.changes.count == 1, "\(plan): \(planned.stdout)")
        let oneFamily = try await asPrinted(recode + " --json", setup, ["ID": newer])
        #expect(oneFamily.status == 0, "\(recode): \(oneFamily.stderr)")
        let repaired = try await asPrinted(repair, setup, ["DIR": "repair-out"])
        #expect(repaired.status == 1, "the findings as found before the repair: \(repaired.stdout) \(repaired.stderr)")
        let upload = try #require(AsPrinted.commands(in: repaired.stdout).last { $0.hasPrefix("tribeboard resync ") }, "\(repaired.stdout)")
        let uploaded = try await asPrinted(upload, setup)
        #expect(uploaded.status == 0, "\(upload): \(uploaded.stdout) \(uploaded.stderr)")
        let after = try await run(["audit", "--json"], setup)
        #expect(try after.report(AuditReportMirror.self).errors == 0, "\(after.stdout)")
    }

    /// A query that finds nothing points at the name search of the same store.
    @Test func noSuchFamilyPointsAtTheNameSearchOfThisStore() async throws {
        let setup = try await provisioned("external_id,family_name,admin_display_name\nO-1,Okonkwo,Ada Okonkwo\n", "printed-find")
        defer { Task { await setup.fixture.emulator.stop() } }
        for arguments in [["recode", "NOSUCH1"], ["resync", "--reupload", "NO-SUCH-ID"], ["remove", "NOSUCH1"]] {
            let failed = try await run(arguments, setup)
            #expect(failed.status != 0, "\(arguments)")
            let find = try #require(AsPrinted.commands(in: failed.stderr).first { $0.hasPrefix("tribeboard doctor family NAME") },
                                    "\(arguments): \(failed.stderr)")
            let found = try await asPrinted(find + " --json", setup, ["NAME": "Okonkwo"])
            #expect(try found.report(FamilyReportMirror.self).family?.name == "Okonkwo", "\(find): \(found.stdout)")
        }
    }

    /// `provision --sync` that could not reach CloudKit says what to run next; run as printed once
    /// CloudKit is back, it uploads everything.
    @Test func provisionsNextStepRunsAsPrinted() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("printed-next")
        try directory.write("in.csv", "external_id,family_name\nN-1,Nwosu\n")
        await fixture.emulator.setFaults(try EmulatorFaults.parse("down"))
        let provision = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store=\(Self.store)", "--out", "out", "--sync",
                                                                      "--json"] + fixture.remoteArguments, in: directory.path)
        let report = try provision.report(ProvisionReportMirror.self)
        let next = try #require(report.remote?.next, "\(provision.stdout) \(provision.stderr)")
        await fixture.emulator.setFaults(EmulatorFaults())
        let ran = try await AsPrinted.run(next, in: directory.path)
        #expect(ran.status == 0, "\(next): \(ran.stdout) \(ran.stderr)")
        #expect(try StoreInspector(path: directory.file(Self.store)).rows("SELECT id FROM families WHERE needs_sync = 1").isEmpty,
                "\(next) uploaded the family")
    }

    /// The commands that upload what provision wrote and what a recode plan would change reach
    /// the remote the run was given (they named only the store: 78 in a shell without
    /// TRIBEBOARD_CK_* variables).
    @Test func theUploadCommandsOfProvisionAndARecodePlanReachTheRemote() async throws {
        let setup = try await provisioned("external_id,family_name\nU-1,Umeh\n", "printed-upload")
        defer { Task { await setup.fixture.emulator.stop() } }
        let plan = try await run(["recode", try #require(setup.families["U-1"]), "--json"], setup)
        let upload = try plan.report(RecodeReportMirror.self).uploadCommand
        #expect(upload.contains("--key-id"), "\(upload)")
        try setup.directory.write("more.csv", "external_id,family_name\nU-2,Udo\n")
        let provision = try await run(["provision", "more.csv", "--out", "out"], setup)
        let waiting = try #require(AsPrinted.commands(in: provision.stdout).first { $0.hasPrefix("tribeboard resync ") }, "\(provision.stdout)")
        let uploaded = try await asPrinted(waiting, setup)
        #expect(uploaded.status == 0, "\(waiting): \(uploaded.stderr)")
        let again = try await asPrinted(upload, setup)
        #expect(again.status == 0, "\(upload): \(again.stderr)")
    }

    /// doctor's way out for a family provisioned without an admin: removed as printed, its row
    /// provisioned again with the admin, and doctor finds every family with one (provisioning the
    /// row again alone, the old advice, changed nothing: provision never changes a family it holds).
    @Test func doctorsNoAdminAdviceRunsAsPrinted() async throws {
        let setup = try await provisioned("external_id,family_name,admin_display_name\nS-1,Solo,\n", "printed-no-admin")
        defer { Task { await setup.fixture.emulator.stop() } }
        let doctor = try await run(["doctor", "--json"], setup)
        let check = try #require(try doctor.report(DoctorReportMirror.self).byID["creations.parentAdmin"], "\(doctor.stdout)")
        let action = try #require(check.action)
        let remove = try #require(AsPrinted.commands(in: action).first { $0.hasPrefix("tribeboard remove ") }, "\(action)")
        let removed = try await asPrinted(remove, setup, ["ID": try #require(setup.families["S-1"])])
        #expect(removed.status == 0, "\(remove): \(removed.stderr)")
        try setup.directory.write("again.csv", "external_id,family_name,admin_display_name\nS-1,Solo,Sam\n")
        let again = try await run(["provision", "again.csv", "--out", "out", "--json"], setup)
        #expect(try again.report(ProvisionReportMirror.self).created == 1, "\(again.stdout) \(again.stderr)")
        let after = try await run(["doctor", "--json"], setup)
        #expect(try after.report(DoctorReportMirror.self).byID["creations.parentAdmin"]?.status == "ok", "\(after.stdout)")
    }

    /// An audit that could not read CloudKit says, as resync does, what it tried (store,
    /// container, endpoint, key) and the command that says why; run as printed, it reaches them.
    @Test func anAuditThatCannotReadCloudKitSaysWhatItTriedAndWhatNext() async throws {
        let setup = try await provisioned("external_id,family_name\nA-1,Ade\n", "printed-audit-down")
        defer { Task { await setup.fixture.emulator.stop() } }
        await setup.fixture.emulator.setFaults(try EmulatorFaults.parse("down"))
        let audit = try await run(["audit"], setup)
        #expect(audit.status == 75, "\(audit.stderr)")
        #expect(audit.stderr.contains("container:") && audit.stderr.contains("store:"), "\(audit.stderr)")
        let line = try #require(audit.stderr.components(separatedBy: "\n").first { $0.contains("next:") }, "\(audit.stderr)")
        let next = try #require(line.components(separatedBy: "next:").last?.trimmingCharacters(in: .whitespaces))
        await setup.fixture.emulator.setFaults(EmulatorFaults())
        let doctor = try await AsPrinted.run(next, in: setup.directory.path)
        #expect(![64, 74, 78].contains(doctor.status) && !doctor.stderr.contains("Usage: "), "\(next): \(doctor.stderr)")
    }
}
