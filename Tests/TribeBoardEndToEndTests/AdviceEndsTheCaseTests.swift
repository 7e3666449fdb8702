import Foundation
import Testing
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardCloudFixtures
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// Cases whose advice used to loop or lie, each run from the state that printed it: the
/// advising runs name the store and the key relative to their folder (`./s.sqlite`, `key.pem`),
/// and every printed command runs as printed from another folder, as cron's mail is pasted.
@Suite(.serialized) struct AdviceEndsTheCaseTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer
    static let appUser = "_app_user_1"

    struct Setup {
        let fixture: EmulatorFixture
        /// Where the advising runs happen (the store and a copy of the key are here).
        let directory: TemporaryDirectory
        /// Where the printed advice is run.
        let elsewhere: TemporaryDirectory
        let family: String
    }

    /// The advising run: the store and the key named relative to `directory`.
    func run(_ arguments: [String], _ setup: Setup) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments + ["--store", "./s.sqlite", "--key-id", setup.fixture.keyID,
                                                                  "--key-file", "key.pem", "--ck-base-url", setup.fixture.emulator.baseURL],
                                         in: setup.directory.path)
    }

    func asPrinted(_ command: String, _ setup: Setup, _ placeholders: [String: String] = [:]) async throws -> ProcessRunner.Result {
        try await AsPrinted.run(command, in: setup.elsewhere.path, replacing: placeholders)
    }

    /// One family provisioned (not uploaded), the fixture's key copied beside the store.
    func provisioned(_ name: String, _ options: CloudKitEmulator.Options = CloudKitEmulator.Options()) async throws -> Setup {
        let fixture = try await EmulatorFixture.start(options, users: [Self.appUser])
        let directory = try TemporaryDirectory(name)
        let elsewhere = try TemporaryDirectory(name + "-elsewhere")
        let key = directory.file("key.pem")
        try Data(fixture.privateKeyPEM).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        try directory.write("in.csv", "external_id,family_name,admin_display_name\nK-1,Kanu,Ada Kanu\n")
        let provision = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "./s.sqlite", "--out", "out", "-q"],
                                                         in: directory.path)
        try #require(provision.status == 0, "\(provision.stderr)")
        let family = try #require(try StoreInspector(path: directory.file("s.sqlite")).rows("SELECT id FROM families").first?["id"])
        return Setup(fixture: fixture, directory: directory, elsewhere: elsewhere, family: family)
    }

    func storeRow(_ setup: Setup) throws -> [String: String] {
        try #require(try StoreInspector(path: setup.directory.file("s.sqlite"))
            .rows("SELECT code, name, needs_sync FROM families WHERE id = '\(setup.family)'").first)
    }

    /// An app user's `Family` record under the family's own record name (written through the
    /// app user's tokens, so CloudKit marks it as that user's): resync sets the family aside as
    /// a name conflict, never a code conflict; doctor family names the other creator and
    /// advises adopt (not the repair, which changes nothing here); the adopt plan names the
    /// creator and prints the command that applies it, not a reprint; applied, it prints the
    /// reprint, which runs; the next resync ends 0.
    @Test(arguments: [false, true]) func anotherCreatorsRecordUnderTheFamilysNameIsClosedByAdopt(accessDenied: Bool) async throws {
        var options = CloudKitEmulator.Options()
        // Apple leaves open which answer a create over another creator's record gets.
        options.accessDeniedOnForeignCreate = accessDenied
        let setup = try await provisioned("advice-creator-\(accessDenied)", options)
        defer { Task { await setup.fixture.emulator.stop() } }
        let appCode = "QQ22RR"
        let record = SnapshotFixture.family(id: setup.family, code: appCode, name: "Kanu (app)")
        let written = try await setup.fixture.client(user: Self.appUser).modify([CloudKitOperation(.create, record)])
        guard case .record? = written.first else { Issue.record("the app user's create: \(written)"); return }

        let resync = try await run(["resync", "--json"], setup)
        #expect(resync.status == 1, "set aside: \(resync.stdout) \(resync.stderr)")
        let resyncReport = try resync.report(ResyncReportMirror.self)
        #expect(resyncReport.nameConflicts == 1, "a name conflict, its own kind: \(resync.stdout)")
        #expect(resyncReport.setAside.first?.conflictWith == setup.family, "\(resync.stdout)")
        let resyncText = try await run(["resync"], setup)
        #expect(!resyncText.stdout.contains("code taken in CloudKit"), "no code conflict: \(resyncText.stdout)")
        #expect(AsPrinted.commands(in: resyncText.stdout).contains { $0.hasPrefix("tribeboard adopt ") }, "\(resyncText.stdout)")

        let doctor = try await run(["doctor", "family", "Kanu", "--json"], setup)
        let report = try doctor.report(FamilyReportMirror.self)
        let finding = try #require(report.findings.first { $0.id == "family.recordCreator" }, "\(doctor.stdout)")
        #expect(finding.status == "failure")
        #expect(report.remote.caller == setup.fixture.developerRecordName)
        #expect(report.remote.records?.first { $0.recordName == setup.family }?.creator == Self.appUser, "\(doctor.stdout)")
        let steps = report.findings.compactMap(\.action).flatMap(AsPrinted.commands)
        #expect(!steps.contains { $0.contains("--repair") }, "no repair: it changes nothing here: \(steps)")
        let plan = try #require(AsPrinted.commands(in: finding.action ?? "").first { $0.hasPrefix("tribeboard adopt ") && !$0.hasSuffix("--apply") },
                                "\(finding.action ?? "")")

        let planned = try await asPrinted(plan + " --json", setup)
        #expect(planned.status == 0, "\(plan): \(planned.stderr)")
        let adoptPlan = try planned.report(AdoptReportMirror.self)
        #expect(!adoptPlan.applied && adoptPlan.anotherCreator && adoptPlan.creator == Self.appUser, "\(planned.stdout)")
        #expect(adoptPlan.warning?.contains(Self.appUser) == true, "the plan names the creator: \(planned.stdout)")
        #expect(adoptPlan.reprintCommand == nil, "nothing to reprint before the store changes: \(planned.stdout)")
        #expect(try storeRow(setup)["code"] != appCode, "a plan changes nothing")
        let apply = try #require(adoptPlan.applyCommand, "\(planned.stdout)")

        let applied = try await asPrinted(apply + " --json", setup)
        #expect(applied.status == 0, "\(apply): \(applied.stderr)")
        let adopted = try applied.report(AdoptReportMirror.self)
        #expect(adopted.applied && adopted.codeChanged, "\(applied.stdout)")
        #expect(try storeRow(setup)["code"] == appCode)
        let reprint = try #require(adopted.reprintCommand, "\(applied.stdout)")
        let printed = try await asPrinted(reprint, setup)
        #expect(printed.status == 0, "\(reprint): \(printed.stderr)")
        #expect(FileManager.default.fileExists(atPath: setup.elsewhere.file("\(setup.family).pdf")), "\(reprint)")

        let again = try await run(["resync", "--json"], setup)
        #expect(again.status == 0, "the case is closed: \(again.stdout) \(again.stderr)")
        let remote = await setup.fixture.emulator.records(container: container).first { $0.recordName == setup.family }
        #expect(remote?.string("code") == appCode, "the app user's record is as they wrote it")
    }

    /// `remove` of that family: CloudKit refuses to delete the app user's record, so remove ends 1
    /// (not 75, "try again": a rerun is refused again) and its next step is adopt, which, run as
    /// printed, closes the case.
    @Test func removingAFamilyWhoseRecordAnotherCreatorWroteAdvisesAdopt() async throws {
        let setup = try await provisioned("advice-creator-remove")
        defer { Task { await setup.fixture.emulator.stop() } }
        let record = SnapshotFixture.family(id: setup.family, code: "QQ33RR", name: "Kanu (app)")
        _ = try await setup.fixture.client(user: Self.appUser).modify([CloudKitOperation(.create, record)])
        #expect(try await run(["resync"], setup).status == 1, "set aside")
        let removed = try await run(["remove", setup.family, "--apply", "--json"], setup)
        #expect(removed.status == 1, "\(removed.stdout) \(removed.stderr)")
        let report = try removed.report(RemoveReportMirror.self)
        #expect(report.notOurs == 1 && report.families.first?.anotherCreator == true, "\(removed.stdout)")
        let next = try #require(AsPrinted.commands(in: report.nextStep ?? "").first { $0.hasPrefix("tribeboard adopt ") },
                                "\(removed.stdout)")
        let adopted = try await asPrinted(next, setup)
        #expect(adopted.status == 0, "\(next): \(adopted.stderr)")
        #expect(try storeRow(setup)["code"] == "QQ33RR")
        let again = try await run(["resync", "--json"], setup)
        #expect(again.status == 0, "the case is closed: \(again.stdout) \(again.stderr)")
    }

    /// A member who joined in the app owns their profile and membership records: the toolkit's
    /// key cannot delete them, so remove keeps the family record (nothing points at a deleted
    /// family), ends 1 (not 75: a rerun alone changes nothing) and says to have them leave in the
    /// app; once they have, the same command finishes.
    @Test func aFamilyWithAMemberWhoJoinedInTheAppIsKeptUntilTheyLeave() async throws {
        let setup = try await provisioned("advice-members-held")
        defer { Task { await setup.fixture.emulator.stop() } }
        #expect(try await run(["resync", "-q"], setup).status == 0)
        let user = UserID(rawValue: "app-user-profile")
        let profile = RecordMapping.userProfile(id: user, displayName: "Joined In App", appleUserIdHash: "hash", avatarUrl: nil,
                                                createdAt: .now)
        let member = RecordMapping.membership(id: MembershipID(rawValue: "joined-in-app"), familyID: FamilyID(rawValue: setup.family),
                                              userID: user, role: .adult, status: .active, joinedAt: .now, lastRoleChangeAt: nil)
        let app = try setup.fixture.client(user: Self.appUser)
        let joined = try await app.modify([CloudKitOperation(.create, profile), CloudKitOperation(.create, member)])
        try #require(joined.allSatisfy { if case .record = $0 { return true } else { return false } }, "\(joined)")
        let command = ["remove", setup.family, "--apply", "--force", "--json"]
        let held = try await run(command, setup)
        #expect(held.status == 1, "\(held.stdout) \(held.stderr)")
        let report = try held.report(RemoveReportMirror.self)
        #expect(report.heldByMembers == 1 && report.families.first?.membershipsNotOurs == 1, "\(held.stdout)")
        #expect(report.nextStep?.contains("leave in the app, then run the same command again") == true, "\(report.nextStep ?? "")")
        let names = { await setup.fixture.emulator.records(container: self.container).map(\.recordName) }
        #expect(await names().contains(setup.family), "the family record stays while a membership points at it")
        // The member leaves in the app (deletes their own membership); the same command finishes.
        _ = try await app.modify([CloudKitOperation(.delete, member)])
        let finished = try await run(command, setup)
        #expect(finished.status == 0, "\(finished.stdout) \(finished.stderr)")
        #expect(await !names().contains(setup.family))
    }

    /// A store restored from a backup made before an uploaded recode: the audit's code-differs
    /// sends to doctor family, which advises adopt (this key's own record: no creator warning);
    /// applied as printed, the store holds CloudKit's code and the audit finds nothing.
    @Test func aStoreRestoredFromBeforeAnUploadedRecodeIsClosedByAdopt() async throws {
        let setup = try await provisioned("advice-restored")
        defer { Task { await setup.fixture.emulator.stop() } }
        #expect(try await run(["resync"], setup).status == 0)
        let backup = try ProcessRunner.run("/usr/bin/sqlite3", [setup.directory.file("s.sqlite"), ".backup '\(setup.directory.file("backup.sqlite"))'"])
        try #require(backup.status == 0, "\(backup.stderr)")
        let recode = try await run(["recode", setup.family, "--apply", "--out", "out", "--json", "--show-codes"], setup)
        try #require(recode.status == 0, "\(recode.stderr)")
        let newCode = try #require(try recode.report(RecodeReportMirror.self).newCode)
        #expect(try await run(["resync"], setup).status == 0)
        let restore = try ProcessRunner.run("/usr/bin/sqlite3", [setup.directory.file("s.sqlite"), ".restore '\(setup.directory.file("backup.sqlite"))'"])
        try #require(restore.status == 0, "\(restore.stderr)")

        let audit = try await run(["audit", "--json"], setup)
        let differs = try #require(try audit.report(AuditReportMirror.self).findings.first { $0.category == "code-differs" }, "\(audit.stdout)")
        let look = try #require(AsPrinted.commands(in: differs.action).first { $0.hasPrefix("tribeboard doctor family ") }, "\(differs.action)")
        let doctor = try await asPrinted(look + " --json", setup)
        let remote = try #require(try doctor.report(FamilyReportMirror.self).findings.first { $0.id == "family.remote" }, "\(doctor.stdout)")
        let commands = AsPrinted.commands(in: remote.action ?? "")
        let plan = try #require(commands.first { $0.hasPrefix("tribeboard adopt ") && !$0.hasSuffix("--apply") }, "\(remote.action ?? "")")
        let apply = try #require(commands.first { $0.hasPrefix("tribeboard adopt ") && $0.hasSuffix("--apply") }, "\(remote.action ?? "")")
        let planned = try await asPrinted(plan + " --json", setup)
        let adoptPlan = try planned.report(AdoptReportMirror.self)
        #expect(!adoptPlan.anotherCreator && adoptPlan.warning == nil, "this key's own record: \(planned.stdout)")
        let applied = try await asPrinted(apply + " --json", setup)
        #expect(applied.status == 0, "\(apply): \(applied.stderr)")
        #expect(try storeRow(setup)["code"] == newCode, "the store holds the code CloudKit has")
        let after = try await run(["audit", "--json"], setup)
        #expect(!(try after.report(AuditReportMirror.self).findings.contains { $0.category == "code-differs" }), "\(after.stdout)")
    }

    /// A recode plan prints the command that applies it, never a reprint (the store still holds
    /// the old code); applied as printed from elsewhere, it prints the reprint, which prints the
    /// new code's card.
    @Test func aRecodePlanPrintsItsApplyAndOnlyTheAppliedRunItsReprint() async throws {
        let setup = try await provisioned("advice-recode-plan")
        defer { Task { await setup.fixture.emulator.stop() } }
        let plan = try await run(["recode", setup.family, "--json"], setup)
        #expect(plan.status == 0, "\(plan.stderr)")
        let planned = try plan.report(RecodeReportMirror.self)
        #expect(planned.reprintCommand == nil, "a card printed now would show the old code: \(plan.stdout)")
        let apply = try #require(planned.applyCommand, "\(plan.stdout)")
        let text = try await run(["recode", setup.family], setup)
        #expect(!AsPrinted.commands(in: text.stdout).contains { $0.hasPrefix("tribeboard sheets ") }, "\(text.stdout)")
        let applied = try await asPrinted(apply + " --json --show-codes", setup, ["DIR": "recoded"])
        #expect(applied.status == 0, "\(apply): \(applied.stderr)")
        let report = try applied.report(RecodeReportMirror.self)
        let reprint = try #require(report.reprintCommand, "\(applied.stdout)")
        let printed = try await asPrinted(reprint, setup)
        #expect(printed.status == 0, "\(reprint): \(printed.stderr)")
        let pdf = setup.elsewhere.file("\(setup.family).pdf")
        #expect(try PDFReader.text(pdf).contains(try #require(report.newCode)), "the card shows the new code")
    }

    /// Persistent THROTTLED with a retry-after longer than `--max-duration`: the run names the
    /// throttling and its wait (not the time limit), ends 75, and its next command, run as
    /// printed once CloudKit stops throttling, uploads everything.
    @Test func aThrottledResyncNamesTheThrottlingAndItsNextCommandRuns() async throws {
        let setup = try await provisioned("advice-throttled")
        defer { Task { await setup.fixture.emulator.stop() } }
        await setup.fixture.emulator.setFaults(try EmulatorFaults.parse("429=1,retry-after=120"))
        let resync = try await run(["resync", "--max-duration", "20", "--json"], setup)
        #expect(resync.status == 75, "\(resync.stdout) \(resync.stderr)")
        let report = try resync.report(ResyncReportMirror.self)
        #expect(report.stopKind == "cloudkit.service" && report.stopRetryAfter == 120, "the throttling, not the time: \(resync.stdout)")
        #expect(report.stoppedBy?.contains("THROTTLED") == true, "\(resync.stdout)")
        let next = try #require(resync.stderr.split(separator: "\n").first { $0.hasPrefix("  next:") }, "\(resync.stderr)")
        let command = next.dropFirst("  next:".count).trimmingCharacters(in: .whitespaces)
        #expect(resync.stderr.contains("120 s"), "the wait CloudKit asked for: \(resync.stderr)")
        await setup.fixture.emulator.setFaults(EmulatorFaults())
        let ran = try await asPrinted(command, setup)
        #expect(ran.status == 0, "\(command): \(ran.stdout) \(ran.stderr)")
        #expect(try storeRow(setup)["needs_sync"] == "0", "\(command) uploaded the family")
    }
}
