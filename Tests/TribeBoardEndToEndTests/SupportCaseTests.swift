import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// Support closes a case with one command, against the emulator as a person runs it: `remove`,
/// `merge`, and resync keeping a creation that did not complete out of CloudKit. Each `--apply`
/// is killed (SIGKILL) while each of its CloudKit requests is on the wire, then run again.
@Suite(.serialized) struct SupportCaseTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer
    /// Every response waits this long: a request is received, the process killed, and the
    /// emulator still applies it (as CloudKit does for a client that went away).
    static let latency = Duration.milliseconds(300)

    struct Case {
        let fixture: EmulatorFixture
        let directory: TemporaryDirectory
        /// External id -> family id.
        let families: [String: String]
    }

    func run(_ arguments: [String], _ setup: Case) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments + ["--store", "s.sqlite"] + setup.fixture.remoteArguments, in: setup.directory.path)
    }

    /// Families provisioned from `csv` and uploaded.
    func provisioned(_ csv: String, name: String) async throws -> Case {
        let fixture = try await EmulatorFixture.start()
        let directory = try TemporaryDirectory(name)
        try directory.write("in.csv", csv)
        let provision = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                                         in: directory.path)
        try #require(provision.status == 0, "\(provision.stderr)")
        let ids = try StoreInspector(path: directory.file("s.sqlite")).rows("SELECT id, substr(import_key, 5) AS ext FROM families")
        let setup = Case(fixture: fixture, directory: directory,
                         families: Dictionary(uniqueKeysWithValues: ids.map { ($0["ext"] ?? "", $0["id"] ?? "") }))
        let synced = try await run(["resync"], setup)
        try #require(synced.status == 0, "\(synced.stderr)")
        return setup
    }

    /// A person who joined `familyID` in the app: their profile and membership exist only in CloudKit.
    func joinInApp(_ familyID: String, name: String, _ setup: Case) async -> (user: String, membership: String) {
        let user = UUID().uuidString, membership = UUID().uuidString
        await setup.fixture.emulator.seed([
            RecordMapping.userProfile(id: UserID(rawValue: user), displayName: name, appleUserIdHash: CSVFixtures.hexHash(77), avatarUrl: nil,
                                      createdAt: .now),
            RecordMapping.membership(id: MembershipID(rawValue: membership), familyID: FamilyID(rawValue: familyID), userID: UserID(rawValue: user),
                                     role: .kid, status: .active, joinedAt: .now, lastRoleChangeAt: nil),
        ], container: container)
        return (user, membership)
    }

    func requestsSoFar(_ emulator: CloudKitEmulator) async -> Int {
        await emulator.requestCounts().values.reduce(0, +)
    }

    /// Runs `arguments` and kills it once `request` requests reached the emulator (the last one
    /// still answering); returns whether it was killed before it ended by itself.
    func killed(at request: Int, _ arguments: [String], _ setup: Case) async throws -> Bool {
        await setup.fixture.emulator.setFaults({ var faults = EmulatorFaults(); faults.latency = Self.latency; return faults }())
        defer { Task { await setup.fixture.emulator.setFaults(EmulatorFaults()) } }
        let base = await requestsSoFar(setup.fixture.emulator)
        let victim = try ProcessRunner.start(tribeboard, arguments + ["--store", "s.sqlite"] + setup.fixture.remoteArguments,
                                             in: setup.directory.path)
        let deadline = Date().addingTimeInterval(30)
        while victim.isRunning, Date() < deadline, await requestsSoFar(setup.fixture.emulator) < base + request {
            try await Task.sleep(for: .milliseconds(5))
        }
        let wasRunning = victim.isRunning
        victim.killHard()
        _ = victim.wait()
        // The request on the wire is applied after the client is gone.
        try await Task.sleep(for: Self.latency * 2)
        await setup.fixture.emulator.setFaults(EmulatorFaults())
        return wasRunning
    }

    /// No `Membership` in CloudKit names a family CloudKit no longer holds.
    func expectNothingDangling(_ setup: Case, _ comment: Comment) async {
        let records = await setup.fixture.emulator.records(container: container)
        let families = Set(records.filter { $0.recordType == RecordMapping.familyType }.map(\.recordName))
        for membership in records where membership.recordType == RecordMapping.membershipType {
            guard case .object(let reference)? = membership.fields?["family"]?.value, case .string(let family)? = reference["recordName"] else { continue }
            #expect(families.contains(family), "membership \(membership.recordName) names a family that is gone (\(comment))")
        }
    }

    func inspector(_ setup: Case) throws -> StoreInspector { try StoreInspector(path: setup.directory.file("s.sqlite")) }

    /// Nothing of the family is left: not in CloudKit (family, memberships, claim), not in the store.
    func expectGone(_ familyID: String, code: String, _ setup: Case, _ comment: Comment) async throws {
        let records = await setup.fixture.emulator.records(container: container)
        #expect(!records.contains { $0.recordName == familyID }, "the Family record is gone (\(comment))")
        #expect(!records.contains { record in
            guard case .object(let reference)? = record.fields?["family"]?.value else { return false }
            return reference["recordName"] == .string(familyID)
        }, "no Membership names it (\(comment))")
        let claims = await setup.fixture.emulator.claims(container: container)
        #expect(claims[try CodeClaim.recordName(forCode: code)] == nil, "its code's claim is released (\(comment))")
        let store = try inspector(setup)
        for table in ["families WHERE id", "memberships WHERE family_id", "code_claims WHERE family_id"] {
            #expect(try store.count("SELECT COUNT(*) FROM \(table) = '\(familyID)'") == 0, "\(table) (\(comment))")
        }
        #expect(try store.count("SELECT COUNT(*) FROM sync_state WHERE record_id = '\(familyID)'") == 0, "\(comment)")
    }

    /// Admins with their Apple account hash: their profiles and memberships are in CloudKit.
    static let twoFamilies = """
        external_id,family_name,admin_display_name,admin_apple_user_id_hash
        A-1,Okafor,Ada Okafor,\(CSVFixtures.hexHash(1))
        B-2,Lindqvist,Sven Lindqvist,\(CSVFixtures.hexHash(2))

        """

    @Test func aRemovalKilledAtEveryRequestConvergesOnARerunAndLeavesNothing() async throws {
        // A clean run first: how many requests a removal of a family with one app member takes.
        let clean = try await provisioned(Self.twoFamilies, name: "remove-clean")
        defer { Task { await clean.fixture.emulator.stop() } }
        let target = try #require(clean.families["A-1"])
        let code = try #require(try inspector(clean).rows("SELECT code FROM families WHERE id = '\(target)'").first?["code"])
        _ = await joinInApp(target, name: "Chidi Okafor", clean)
        let plan = try await run(["remove", target, "--json"], clean)
        #expect(plan.status == 64, "a member besides the admin needs --force or a merge: \(plan.stderr)")
        #expect(plan.stderr.contains("tribeboard merge \(target) --into"))
        let before = await requestsSoFar(clean.fixture.emulator)
        let applied = try await run(["remove", target, "--apply", "--force", "--json"], clean)
        #expect(applied.status == 0, "\(applied.stderr)")
        let report = try applied.report(RemoveReportMirror.self)
        #expect(report.removed == 1 && report.families.first?.remoteMembershipsDeleted == 2 && report.families.first?.claimsReleased == 1,
                "\(applied.stdout)")
        #expect(report.families.first?.members.first?.profile == "kept", "the admin's profile went up: it is the person's")
        let requests = await requestsSoFar(clean.fixture.emulator) - before
        #expect(requests >= 5, "lookup, query, memberships, family, claim lookup and delete: \(requests)")
        #expect(report.requests == requests, "the report counts every request (users/caller included)")
        try await expectGone(target, code: code, clean, "clean run")
        let other = try #require(clean.families["B-2"])
        #expect(await clean.fixture.emulator.records(container: container).contains { $0.recordName == other }, "the other family stays")
        let again = try await run(["remove", target, "--apply", "--json"], clean)
        let repeated = try again.report(RemoveReportMirror.self)
        #expect(again.status == 0 && repeated.alreadyRemoved == 1, "\(again.stdout)")

        var killedMidRun = 0
        for request in 1...requests {
            let setup = try await provisioned(Self.twoFamilies, name: "remove-kill-\(request)")
            defer { Task { await setup.fixture.emulator.stop() } }
            let family = try #require(setup.families["A-1"])
            let familyCode = try #require(try inspector(setup).rows("SELECT code FROM families WHERE id = '\(family)'").first?["code"])
            _ = await joinInApp(family, name: "Chidi Okafor", setup)
            if try await killed(at: request, ["remove", family, "--apply", "--force", "-q"], setup) { killedMidRun += 1 }
            await expectNothingDangling(setup, "killed at request \(request)")
            // Cron's resync between the kill and the rerun uploads nothing of what is leaving.
            _ = try await run(["resync"], setup)
            await expectNothingDangling(setup, "resync after the kill at request \(request)")
            let rerun = try await run(["remove", family, "--apply", "--force", "--json"], setup)
            #expect(rerun.status == 0, "killed at request \(request): \(rerun.stdout) \(rerun.stderr)")
            try await expectGone(family, code: familyCode, setup, "killed at request \(request), then rerun")
        }
        #expect(killedMidRun == requests, "every request had a run killed on it")
    }

    @Test func aParentRegisteredTwiceIsMergedWithTheMemberWhoJoinedTheDuplicate() async throws {
        let csv = """
            external_id,family_name,admin_display_name
            A-1,Nguyễn,Minh Nguyễn
            B-7,NGUYEN,Minh Nguyen

            """
        let clean = try await provisioned(csv, name: "merge-clean")
        defer { Task { await clean.fixture.emulator.stop() } }
        let (kept, duplicate) = (try #require(clean.families["A-1"]), try #require(clean.families["B-7"]))
        let joined = await joinInApp(duplicate, name: "Lan Nguyễn", clean)
        // The audit finds the double registration and prints the command that merges it.
        let audit = try await run(["audit", "--json"], clean)
        let finding = try #require(try audit.report(AuditReportMirror.self).findings.first { $0.category == "registered-twice" }, "\(audit.stdout)")
        #expect(finding.families.map(\.id) == [kept, duplicate])
        let printed = try #require(AsPrinted.commands(in: finding.action).first, "\(finding.action)")
        #expect(printed.hasPrefix("tribeboard merge \(duplicate) --into \(kept) --store \(clean.directory.file("s.sqlite")) --container"), "\(finding.action)")
        // Run as printed: the remote is in the command (the audit's own flags), not in the shell.
        let plan = try await AsPrinted.run(printed + " --json", in: clean.directory.path)
        #expect(plan.status == 0, "\(plan.stderr)")
        let planned = try plan.report(MergeReportMirror.self)
        #expect(!planned.applied && planned.members.map(\.outcome).sorted() == ["moved", "the kept family's admin, registered twice"], "\(plan.stdout)")
        let before = await requestsSoFar(clean.fixture.emulator)
        let merged = try await run(["merge", duplicate, "--into", kept, "--apply", "--json"], clean)
        #expect(merged.status == 0, "\(merged.stderr)")
        let requests = await requestsSoFar(clean.fixture.emulator) - before
        try await expectMerged(duplicate, into: kept, joined: joined.user, clean, "clean run")
        let report = try merged.report(MergeReportMirror.self)
        #expect(report.membershipsUploaded == 1 && report.removal?.removed == 1, "\(merged.stdout)")
        #expect(report.reprintCommand.contains("--family-id \(kept)"))
        let again = try await run(["merge", duplicate, "--into", kept, "--apply", "--json"], clean)
        let repeated = try again.report(MergeReportMirror.self)
        #expect(again.status == 0 && repeated.alreadyMerged, "\(again.stdout)")

        for request in 1...requests {
            let setup = try await provisioned(csv, name: "merge-kill-\(request)")
            defer { Task { await setup.fixture.emulator.stop() } }
            let (keep, dup) = (try #require(setup.families["A-1"]), try #require(setup.families["B-7"]))
            let member = await joinInApp(dup, name: "Lan Nguyễn", setup)
            _ = try await killed(at: request, ["merge", dup, "--into", keep, "--apply", "-q"], setup)
            await expectNothingDangling(setup, "killed at request \(request)")
            _ = try await run(["resync"], setup)
            let rerun = try await run(["merge", dup, "--into", keep, "--apply", "--json"], setup)
            #expect(rerun.status == 0, "killed at request \(request): \(rerun.stdout) \(rerun.stderr)")
            try await expectMerged(dup, into: keep, joined: member.user, setup, "killed at request \(request), then rerun")
        }
    }

    /// The member who joined the duplicate is in the kept family, once, in CloudKit and the store;
    /// the kept family has one active admin; the duplicate is gone.
    func expectMerged(_ duplicate: String, into kept: String, joined user: String, _ setup: Case, _ comment: Comment) async throws {
        let store = try inspector(setup)
        #expect(try store.count("SELECT COUNT(*) FROM memberships WHERE family_id = '\(kept)' AND user_id = '\(user)'") == 1, "\(comment)")
        #expect(try store.count("SELECT COUNT(*) FROM memberships WHERE family_id = '\(kept)' AND role = 'parent_admin' AND status != 'removed'") == 1,
                "\(comment)")
        #expect(try store.count("SELECT COUNT(*) FROM memberships WHERE family_id = '\(kept)'") == 2, "the admin and the member who joined: \(comment)")
        let code = try #require(try store.rows("SELECT code FROM family_removals WHERE family_id = '\(duplicate)'").first?["code"])
        try await expectGone(duplicate, code: code, setup, comment)
        // CloudKit has the member's new membership in the kept family (uploaded by the merge or the resync after it).
        _ = try await run(["resync"], setup)
        let memberships = await setup.fixture.emulator.records(container: container).filter {
            $0.recordType == RecordMapping.membershipType && RemoteReference.name($0, "user") == user
        }
        #expect(memberships.count == 1 && memberships.first.flatMap { RemoteReference.name($0, "family") } == kept, "\(comment)")
    }

    @Test func aCreationThatDidNotCompleteIsKeptOutOfCloudKitThenRemoved() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("half-made")
        try directory.write("in.csv", "external_id,family_name\nH-1,Half\nW-2,Whole\n")
        let provision = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                                         in: directory.path)
        try #require(provision.status == 0, "\(provision.stderr)")
        let setup = Case(fixture: fixture, directory: directory, families: [:])
        let half = try #require(try inspector(setup).rows("SELECT id FROM families WHERE import_key = 'ext:H-1'").first?["id"])
        // As a creation killed at creatingLocally leaves it: no `completed` row, no admin.
        let edit = try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"),
                                                              "DELETE FROM creation_log WHERE family_id = '\(half)' AND state = 'completed'"])
        try #require(edit.status == 0, "\(edit.stderr)")
        let logBefore = try inspector(setup).rows("SELECT state, at FROM creation_log WHERE family_id = '\(half)' ORDER BY id")

        let resync = try await run(["resync", "--json"], setup)
        #expect(resync.status == 1, "a creation set aside is not a clean run: \(resync.stdout)")
        let report = try resync.report(ResyncReportMirror.self)
        #expect(report.unfinishedCreations == 1 && report.unfinishedCreationIds == [half] && report.synced > 0, "\(resync.stdout)")
        let records = await fixture.emulator.records(container: container)
        #expect(!records.contains { $0.recordName == half }, "never uploaded")
        #expect(records.contains { $0.string("name") == "Whole" }, "the other family went up")
        #expect(try inspector(setup).rows("SELECT state, at FROM creation_log WHERE family_id = '\(half)' ORDER BY id") == logBefore, "its log as it was")

        let doctor = try await run(["doctor", "family", half, "--json"], setup)
        #expect(doctor.stdout.contains("tribeboard remove \(half)"), "doctor names the command that closes it: \(doctor.stdout)")

        let removed = try await run(["remove", half, "--apply", "--json"], setup)
        #expect(removed.status == 0, "\(removed.stderr)")
        let removal = try removed.report(RemoveReportMirror.self)
        #expect(removal.removed == 1 && removal.families.first?.unfinishedCreation == true, "\(removed.stdout)")
        #expect(try inspector(setup).count("SELECT COUNT(*) FROM families WHERE id = '\(half)'") == 0)
        let clean = try await run(["resync", "--json"], setup)
        #expect(clean.status == 0, "nothing left set aside: \(clean.stdout)")
    }

    /// A family resync set aside because CloudKit holds another version under its name (the app's).
    /// `appUser`: an app user created CloudKit's version, so the key's write is ACCESS_DENIED
    /// (the security roles) rather than a conflict.
    func setAside(_ name: String, appUser: Bool = false) async throws -> (Case, family: String, remoteCode: String) {
        var options = CloudKitEmulator.Options()
        // The answer Apple leaves open for a create over another creator's record (docs/cloudkit.md).
        options.accessDeniedOnForeignCreate = appUser
        let fixture = try await EmulatorFixture.start(options)
        let directory = try TemporaryDirectory(name)
        try directory.write("in.csv", "external_id,family_name,admin_display_name\nQ-1,Quarantined,Ines Quarantined\n")
        let provision = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                                         in: directory.path)
        try #require(provision.status == 0, "\(provision.stderr)")
        let setup = Case(fixture: fixture, directory: directory, families: [:])
        let family = try #require(try inspector(setup).rows("SELECT id FROM families").first?["id"])
        let remoteCode = "QQ22RR"
        var appVersion = SnapshotFixture.family(id: family, code: remoteCode, name: "Quarantined (app)")
        if appUser { appVersion.created = .init(timestamp: 1_700_000_000_000, userRecordName: "_0123456789abcdef0123456789abcdef") }
        await fixture.emulator.seed([appVersion], container: container)
        let resync = try await run(["resync", "--json"], setup)
        #expect(resync.status == 1, "set aside: \(resync.stdout)")
        return (setup, family, remoteCode)
    }

    @Test func aFamilySetAsideIsAdoptedFromCloudKitAndAKillLeavesTheStoreWholeOrAdopted() async throws {
        let (clean, family, remoteCode) = try await setAside("adopt-clean")
        defer { Task { await clean.fixture.emulator.stop() } }
        let plan = try await run(["adopt", family, "--json"], clean)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(try plan.report(AdoptReportMirror.self).codeChanged)
        let before = await requestsSoFar(clean.fixture.emulator)
        let adopted = try await run(["adopt", family, "--apply", "--json"], clean)
        #expect(adopted.status == 0, "\(adopted.stderr)")
        let requests = await requestsSoFar(clean.fixture.emulator) - before
        let report = try adopted.report(AdoptReportMirror.self)
        #expect(report.applied && report.setAsideEnded && report.cloudKitName == "Quarantined (app)", "\(adopted.stdout)")
        #expect(report.reprintCommand == Advice.reprint(store: clean.directory.file("s.sqlite"), familyID: FamilyID(rawValue: family)).command)
        try await expectAdopted(family, code: remoteCode, clean, "clean run")

        for request in 1...requests {
            let (setup, id, code) = try await setAside("adopt-kill-\(request)")
            defer { Task { await setup.fixture.emulator.stop() } }
            _ = try await killed(at: request, ["adopt", id, "--apply", "-q"], setup)
            let name = try inspector(setup).rows("SELECT name FROM families WHERE id = '\(id)'").first?["name"]
            #expect(name == "Quarantined", "a kill while CloudKit is read leaves the store as it was (request \(request))")
            let rerun = try await run(["adopt", id, "--apply", "--json"], setup)
            #expect(rerun.status == 0, "killed at request \(request): \(rerun.stderr)")
            try await expectAdopted(id, code: code, setup, "killed at request \(request), then rerun")
        }
    }

    @Test func aFamilyRefusedWithAccessDeniedIsAdoptedFromTheAppUsersRecord() async throws {
        let (setup, family, remoteCode) = try await setAside("adopt-denied", appUser: true)
        defer { Task { await setup.fixture.emulator.stop() } }
        let list = try await run(["resync", "--list", "--json"], setup)
        let entry = try list.report(ResyncListMirror.self).entries.first { $0.id == family }
        // Refused because an app user's record holds the name: a name conflict naming that
        // creator (adopt closes it), not a quarantine that a release would only repeat.
        #expect(entry?.status == "conflict" && entry?.conflictWith == family, "\(list.stdout)")
        #expect(entry?.lastError?.contains("created by _0123456789abcdef0123456789abcdef") == true, "\(list.stdout)")
        let adopted = try await run(["adopt", family, "--apply", "--json"], setup)
        #expect(adopted.status == 0, "\(adopted.stderr)")
        let report = try adopted.report(AdoptReportMirror.self)
        #expect(report.applied && report.setAsideEnded && report.cloudKitName == "Quarantined (app)", "\(adopted.stdout)")
        try await expectAdopted(family, code: remoteCode, setup, "adopted after ACCESS_DENIED")
    }

    /// The store holds CloudKit's version, nothing is set aside, and resync ends 0 without changing CloudKit.
    func expectAdopted(_ family: String, code: String, _ setup: Case, _ comment: Comment) async throws {
        let row = try #require(try inspector(setup).rows("SELECT name, code, needs_sync FROM families WHERE id = '\(family)'").first)
        #expect(row["name"] == "Quarantined (app)" && row["code"] == code && row["needs_sync"] == "0", "\(row) (\(comment))")
        #expect(try inspector(setup).count("SELECT COUNT(*) FROM sync_state WHERE record_id = '\(family)'") == 0, "\(comment)")
        let resync = try await run(["resync", "--json"], setup)
        #expect(resync.status == 0, "nothing set aside any more: \(resync.stdout) (\(comment))")
        let remote = await setup.fixture.emulator.records(container: container).first { $0.recordName == family }
        #expect(remote?.string("name") == "Quarantined (app)" && remote?.string("code") == code, "CloudKit's version stands (\(comment))")
    }
}

/// The record name a REFERENCE field of a test's record holds.
enum RemoteReference {
    static func name(_ record: CloudKitRecord, _ field: String) -> String? {
        guard case .object(let reference)? = record.fields?[field]?.value, case .string(let name)? = reference["recordName"] else { return nil }
        return name
    }
}
