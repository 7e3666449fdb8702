import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport
import TribeBoardRemote

/// The commands against the emulator behaving as a real container in
/// each mode end with the documented status and a message naming the fix, nothing lost and
/// nothing uploaded twice. Store rows are read with sqlite3, not the toolkit.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct EmulatedContainerTests {
    let container = CloudKitConfiguration.defaultContainer
    static let families = 6

    struct Workspace {
        let directory: TemporaryDirectory
        let fixture: EmulatorFixture
        var environment = "development"

        /// The run; its --json stdout is decoded by the caller as the report (or error) it expects.
        func run(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.runAsync(ProcessRunner.executable("tribeboard"),
                                             arguments + ["--store", "s.sqlite", "--json", "--environment", environment]
                                                 + fixture.remoteArguments, in: directory.path)
        }

        func provision() async throws -> ProcessRunner.Result {
            try await run(["provision", "in.csv", "--out", "out", "--sync"])
        }

        func sqlite(_ query: String) throws -> Int {
            let result = try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"), query])
            return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }

        var pendingFamilies: Int { get throws { try sqlite("SELECT count(*) FROM families WHERE needs_sync = 1") } }
        var localFamilies: Int { get throws { try sqlite("SELECT count(*) FROM families") } }

        func remoteFamilies() async -> [CloudKitRecord] {
            await fixture.emulator.records(container: CloudKitConfiguration.defaultContainer, environment: environment)
                .filter { $0.recordType == RecordMapping.familyType }
        }

        /// doctor's remote schema checks, by id.
        func doctorSchemaChecks() async throws -> [String: DoctorCheckMirror] {
            try await run(["doctor"]).report(DoctorReportMirror.self).byID.filter { $0.key.hasPrefix("remote.schema.") }
        }
    }

    func workspace(_ options: CloudKitEmulator.Options, environment: String = "development") async throws -> Workspace {
        let directory = try TemporaryDirectory("emulated-container")
        try directory.write("in.csv", CSVFixtures.families(count: Self.families))
        return Workspace(directory: directory, fixture: try await EmulatorFixture.start(options), environment: environment)
    }

    /// The toolkit's schema file with one line changed, as an operator's container might have it.
    static func template(replacing line: String, with replacement: String) throws -> ContainerSchema {
        let text = try String(contentsOfFile: CloudKitEmulator.Options.templateSchemaPath, encoding: .utf8)
        try #require(text.contains(line))
        return try SchemaParser.parse(text.replacingOccurrences(of: line, with: replacement))
    }

    @Test func aFreshDevelopmentContainerWithTheSchemaFileTakesEverythingOnce() async throws {
        let space = try await workspace(.enforcing(development: try CloudKitEmulator.Options.templateSchema()))
        defer { Task { await space.fixture.emulator.stop() } }
        let provision = try await space.provision()
        #expect(provision.status == 0, "\(provision.stderr)")
        #expect(try provision.report(ProvisionReportMirror.self).codesVerifiedRemotely == Self.families, "\(provision.stdout)")
        #expect(try await space.run(["resync"]).status == 0)
        #expect(await space.remoteFamilies().count == Self.families)
        #expect(try space.pendingFamilies == 0)
        let audit = try await space.run(["audit"])
        #expect(audit.status == 0, "\(audit.stderr)")
        let checks = try await space.doctorSchemaChecks()
        #expect(!checks.isEmpty)
        #expect(checks.values.allSatisfy { $0.status == "ok" }, "\(checks)")
    }

    @Test func codeWithoutQueryableIndexIs78NamingTheIndexAndUploadsNothing() async throws {
        let schema = try Self.template(replacing: "code            STRING QUERYABLE", with: "code            STRING")
        let space = try await workspace(.enforcing(development: schema))
        defer { Task { await space.fixture.emulator.stop() } }
        let provision = try await space.provision()
        #expect(provision.status == 78, "\(provision.stderr)")
        #expect(try provision.report(ProvisionReportMirror.self).remote?.errorKind == "configuration", "\(provision.stdout)")
        #expect(provision.stderr.contains("Family has no QUERYABLE index on code"), "the message names the index to add: \(provision.stderr)")
        let resync = try await space.run(["resync"])
        #expect(resync.status == 78, "\(resync.stderr)")
        #expect(try resync.report(ResyncReportMirror.self).exitKind == "configuration", "\(resync.stdout)")
        #expect(try space.localFamilies == Self.families && space.pendingFamilies == Self.families, "nothing lost")
        #expect(await space.remoteFamilies().isEmpty, "nothing uploaded with codes unchecked")
        let checks = try await space.doctorSchemaChecks()
        #expect(checks["remote.schema.Family.code"]?.status == "failure")
        #expect(checks["remote.schema.Family.code"]?.found.contains("Schema > Indexes > Family") == true)
    }

    @Test func theLiveAuditWithoutRecordIDQueryableIs78NamingIt() async throws {
        // Family's alone: the legacy CKFamily has the same lines, and the audit reads both at once,
        // so either could be the one named first.
        let head = "TYPE Family (\n        \"___createTime\" TIMESTAMP SORTABLE,\n"
        let schema = try Self.template(replacing: head + "        \"___recordID\"   REFERENCE QUERYABLE,\n", with: head)
        let space = try await workspace(.enforcing(development: schema))
        defer { Task { await space.fixture.emulator.stop() } }
        #expect(try await space.provision().status == 0)
        let audit = try await space.run(["audit"])
        #expect(audit.status == 78, "\(audit.stderr)")
        let error = try ErrorDocument(audit)
        #expect(error.kind == "cloudkit.schema.notQueryable" && error.field == "recordName" && error.recordType == "Family", "\(error)")
        #expect(error.message.contains("recordName (___recordID)"), "the message names the index to add: \(error.message)")
        let checks = try await space.doctorSchemaChecks()
        #expect(checks["remote.schema.Family.recordID"]?.status == "failure")
    }

    @Test func productionWithoutTheDeployedSchemaIs78AndKeepsEverythingPending() async throws {
        let space = try await workspace(.enforcing(development: try CloudKitEmulator.Options.templateSchema()), environment: "production")
        defer { Task { await space.fixture.emulator.stop() } }
        let provision = try await space.provision()
        #expect(provision.status == 78, "\(provision.stderr)")
        #expect(try provision.report(ProvisionReportMirror.self).remote?.errorKind == "configuration", "\(provision.stdout)")
        #expect(provision.stderr.contains("Deploy Schema Changes"), "the message names the fix: \(provision.stderr)")
        #expect(try await space.run(["resync"]).status == 78)
        #expect(try space.localFamilies == Self.families && space.pendingFamilies == Self.families)
        #expect(await space.remoteFamilies().isEmpty)
        let audit = try await space.run(["audit"])
        #expect(audit.status == 78, "\(audit.stderr)")
        let error = try ErrorDocument(audit)
        #expect(error.kind == "cloudkit.schema.missingType" && error.recordType == "Family" && error.category == "configuration", "\(error)")
        let checks = try await space.doctorSchemaChecks()
        #expect(checks["remote.schema.Family.code"]?.status == "failure")
        #expect(checks["remote.schema.Family.code"]?.found.contains("cktool import-schema") == true)
    }

    @Test func aFreshEmptyDevelopmentContainerIs78NamingTheSchemaImport() async throws {
        let space = try await workspace(.enforcing(development: .empty))
        defer { Task { await space.fixture.emulator.stop() } }
        let provision = try await space.provision()
        #expect(provision.status == 78, "\(provision.stderr)")
        #expect(try provision.report(ProvisionReportMirror.self).remote?.errorKind == "configuration", "\(provision.stdout)")
        #expect(provision.stderr.contains("cktool import-schema"), "the message names the fix: \(provision.stderr)")
        #expect(try space.localFamilies == Self.families && space.pendingFamilies == Self.families)
        #expect(await space.remoteFamilies().isEmpty)
    }

    @Test func productionWithTheDeployedSchemaTakesEverythingOnce() async throws {
        let space = try await workspace(try .templateContainer(), environment: "production")
        defer { Task { await space.fixture.emulator.stop() } }
        let provision = try await space.provision()
        #expect(provision.status == 0, "\(provision.stderr)")
        #expect(try await space.run(["resync"]).status == 0)
        #expect(await space.remoteFamilies().count == Self.families)
        #expect(await space.fixture.emulator.records(container: container).isEmpty, "development untouched")
    }

    @Test func aBare503IsWaitedOutAsItsRetryAfterHeaderSays() async throws {
        var options = try CloudKitEmulator.Options.templateContainer()
        options.faults = try EmulatorFaults.parse("503-bare=1,retry-after=3600")
        let space = try await workspace(options)
        defer { Task { await space.fixture.emulator.stop() } }
        let provision = try await space.provision()
        #expect(provision.status == 75, "\(provision.stderr)")
        // An hour's wait does not fit in the run: no request is retried at once (each command makes one).
        let counts = await space.fixture.emulator.requestCounts()
        #expect(counts.values.reduce(0, +) == 1, "\(counts)")
        #expect(try space.localFamilies == Self.families, "created locally all the same")
        #expect(try await space.run(["audit"]).status == 75, "the live read could not be made")
        await space.fixture.emulator.setFaults(EmulatorFaults())
        #expect(try await space.run(["resync"]).status == 0)
        #expect(await space.remoteFamilies().count == Self.families)
        #expect(try space.pendingFamilies == 0)
    }

    @Test func recordsThrottledOneByOneAreRetriedUntilEachIsUploadedOnce() async throws {
        var options = try CloudKitEmulator.Options.templateContainer()
        options.faults = try EmulatorFaults.parse("record-429=0.3,retry-after=0.05,seed=5")
        let space = try await workspace(options)
        defer { Task { await space.fixture.emulator.stop() } }
        var last = try await space.provision()
        // A throttled record waits at least what its own retryAfter says (the toolkit waits for a later run).
        #expect(try space.sqlite("SELECT count(*) FROM sync_state WHERE last_error LIKE 'THROTTLED%'") > 0)
        #expect(try space.sqlite("SELECT count(*) FROM sync_state WHERE next_attempt_at <= last_attempt_at") == 0)
        for _ in 0..<5 where last.status != 0 {
            // As if the wait had passed.
            _ = try space.sqlite("UPDATE sync_state SET next_attempt_at = '2000-01-01T00:00:00.000Z'")
            last = try await space.run(["resync"])
        }
        #expect(last.status == 0, "\(last.stdout)")
        #expect(try space.pendingFamilies == 0)
        let remote = await space.remoteFamilies()
        #expect(remote.count == Self.families && Set(remote.map(\.recordName)).count == Self.families)
    }

    /// docs/provision.md: provision exits 1 when rows failed, 75 when CloudKit throttled and records wait for sync.
    @Test func provisionWhoseRecordsWereThrottledExits75SayingWhatWaits() async throws {
        var options = try CloudKitEmulator.Options.templateContainer()
        options.faults = try EmulatorFaults.parse("record-429=0.3,retry-after=0.05,seed=5")
        let space = try await workspace(options)
        defer { Task { await space.fixture.emulator.stop() } }
        let provision = try await ProcessRunner.runAsync(ProcessRunner.executable("tribeboard"),
                                                         ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--sync", "--json"]
                                                             + space.fixture.remoteArguments, in: space.directory.path)
        #expect(try space.localFamilies == Self.families, "every row provisioned, none failed")
        #expect(provision.status == 75, "throttled: the local work is done, records wait for resync")
        let remote = try #require(try provision.report(ProvisionReportMirror.self).remote, "\(provision.stdout)")
        // Single records throttled: the upload went on, nothing stopped it.
        #expect(remote.uploadOutcome == "tryLater" && remote.uploadStopKind == nil, "\(remote)")
        let uploaded = try space.sqlite("SELECT (SELECT count(*) FROM families WHERE needs_sync = 0) + (SELECT count(*) FROM user_profiles WHERE needs_sync = 0)"
                                        + " + (SELECT count(*) FROM memberships WHERE needs_sync = 0)")
        // Throttled records, and the memberships that wait for a throttled family.
        // (Profiles and memberships of admins invited without an Apple account hash are not
        // waiting for CloudKit: they wait for the person to join.)
        let waiting = try space.sqlite("SELECT (SELECT count(*) FROM families WHERE needs_sync = 1)"
                                       + " + (SELECT count(*) FROM user_profiles WHERE needs_sync = 1 AND apple_user_id_hash IS NOT NULL)"
                                       + " + (SELECT count(*) FROM memberships m JOIN user_profiles u ON u.id = m.user_id"
                                       + " WHERE m.needs_sync = 1 AND u.apple_user_id_hash IS NOT NULL)")
        #expect(uploaded > 0 && waiting > 0)
        #expect(remote.uploaded == uploaded && remote.uploadWaiting == waiting, "\(remote)")
        #expect(remote.next?.hasPrefix("tribeboard resync ") == true, "\(remote)")
        // Each throttled record waits what its own retryAfter said (0.05 s), not a generic minute.
        #expect(try space.sqlite("SELECT count(*) FROM sync_state WHERE (julianday(next_attempt_at) - julianday(last_attempt_at)) * 86400 > 5") == 0)
        // No membership went up before its family (CloudKit would refuse the reference).
        try #require(try space.pendingFamilies > 0, "a family was throttled (seed 5)")
        #expect(try space.sqlite("SELECT count(*) FROM memberships m JOIN families f ON f.id = m.family_id WHERE m.needs_sync = 0 AND f.needs_sync = 1") == 0)
        #expect(try space.sqlite("SELECT count(*) FROM sync_state WHERE last_error LIKE 'VALIDATING_REFERENCE_ERROR%'") == 0)
    }

    @Test func conflictOnARepeatedCreateIsLookedUpNotQuarantined() async throws {
        var options = try CloudKitEmulator.Options.templateContainer()
        options.conflictOnRepeatedCreate = true
        let space = try await workspace(options)
        defer { Task { await space.fixture.emulator.stop() } }
        #expect(try await space.provision().status == 0)
        // As after a kill -9 between the upload and its bookkeeping: uploaded, still marked pending.
        _ = try space.sqlite("UPDATE families SET needs_sync = 1")
        let resync = try await space.run(["resync"])
        #expect(resync.status == 0, "\(resync.stderr)")
        #expect(try resync.report(ResyncReportMirror.self).quarantined == 0, "\(resync.stdout)")
        #expect(try space.pendingFamilies == 0)
        #expect(await space.remoteFamilies().count == Self.families, "nothing uploaded twice")
    }

    @Test func thirtyPercentFaultsAndAKillMidRunStillUploadEveryRecordOnce() async throws {
        var options = try CloudKitEmulator.Options.templateContainer()
        options.faults = try EmulatorFaults.parse("503=0.1,503-bare=0.05,429=0.05,retry-after=0.05,500=0.05,drop=0.05,latency=5ms,seed=12")
        let space = try await workspace(options)
        defer { Task { await space.fixture.emulator.stop() } }
        try space.directory.write("in.csv", CSVFixtures.families(count: 600))
        // Provisioned offline first, as on a machine without the key.
        let local = try await ProcessRunner.runAsync(ProcessRunner.executable("tribeboard"),
                                                     ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: space.directory.path)
        try #require(local.status == 0, "\(local.stderr)")
        let victim = try ProcessRunner.start(ProcessRunner.executable("tribeboard"),
                                             ["resync", "--store", "s.sqlite"] + space.fixture.remoteArguments, in: space.directory.path)
        for _ in 0..<300 where await space.remoteFamilies().count < 100 { try await Task.sleep(for: .milliseconds(10)) }
        victim.killHard()
        _ = victim.wait()
        var status: Int32 = -1
        for _ in 0..<10 where status != 0 { status = try await space.run(["resync"]).status }
        #expect(status == 0)
        #expect(try space.pendingFamilies == 0 && space.localFamilies == 600)
        let remote = await space.remoteFamilies()
        #expect(remote.count == 600 && Set(remote.map(\.recordName)).count == 600, "every family once")
    }

    /// Security roles: the toolkit's key may not change a record an app user created. A repaired
    /// code (audit --apply) meets such a record: refused, and the user's record stays as it was.
    @Test func aRepairedCodeOnARecordAnAppUserCreatedIsRefusedAndNothingIsOverwritten() async throws {
        let (space, id, oldCode, stop) = try await repairedCodeOnAUsersRecord()
        defer { stop() }
        let resync = try await space.run(["resync"])
        #expect(resync.status != 0, "\(resync.stderr)")
        let report = try resync.report(ResyncReportMirror.self)
        let entry = report.setAside.first { $0.id == id }
        #expect(entry?.lastError?.contains("WRITE operation not permitted") == true, "\(resync.stdout)")
        #expect(report.exitKind == "setAside" && entry?.status == "quarantined", "\(resync.stdout)")
        let remote = await space.remoteFamilies()
        #expect(remote.count == Self.families, "the other families are uploaded once")
        #expect(remote.first { $0.recordName == id }?.string("code") == oldCode, "the user's record is not overwritten")
    }

    @Test func aRecordAnAppUserCreatedIsQuarantinedAndTheRunGoesOn() async throws {
        let (space, id, _, stop) = try await repairedCodeOnAUsersRecord()
        defer { stop() }
        let resync = try await space.run(["resync"])
        #expect(resync.status == 1, "\(resync.stderr)")
        let report = try resync.report(ResyncReportMirror.self)
        #expect(report.quarantined == 1, "\(resync.stdout)")
        let setAside = report.setAside
        #expect(setAside.count == 1 && setAside.first?.id == id, "\(resync.stdout)")
        #expect(setAside.first?.lastError?.hasPrefix("ACCESS_DENIED: WRITE operation not permitted") == true, "\(resync.stdout)")
        // The family's record is in CloudKit (the user's): its membership went up with the others.
        // (Memberships of admins invited without an Apple account hash wait for them to join.)
        #expect(try space.sqlite("""
            SELECT count(*) FROM memberships m JOIN user_profiles u ON u.id = m.user_id
            WHERE m.needs_sync = 1 AND u.apple_user_id_hash IS NOT NULL
            """) == 0)
        #expect(try space.sqlite("SELECT count(*) FROM families WHERE needs_sync = 1") == 1)
        // A later run does not send it again: it waits for the operator.
        let before = await space.fixture.emulator.requestCounts()
        let again = try await space.run(["resync"])
        #expect(try again.status == 1 && again.report(ResyncReportMirror.self).quarantined == 1, "\(again.stderr)")
        #expect(await space.fixture.emulator.requestCounts() == before, "nothing sent for a quarantined record")
        let doctor = try await space.run(["doctor", "family", id])
        let sync = try doctor.report(FamilyReportMirror.self).findings.first { $0.id == "family.sync" }
        #expect(sync?.found.contains("WRITE operation not permitted") == true, "\(doctor.stdout)")
        // Released by the operator (after deciding which version is right), it is tried again.
        let release = try await space.run(["resync", "--release", id])
        #expect(release.status == 0, "\(release.stderr)")
        #expect(try space.sqlite("SELECT count(*) FROM sync_state") == 0)
    }

    /// A store whose first family got a new code from an audit repair, against a container where an
    /// app user created that family's record (with the old code) in the app.
    func repairedCodeOnAUsersRecord() async throws -> (Workspace, String, String, @Sendable () -> Void) {
        let first = try await workspace(try .templateContainer())
        defer { Task { await first.fixture.emulator.stop() } }
        try #require(try await first.provision().status == 0)
        let row = try ProcessRunner.run("/usr/bin/sqlite3", [first.directory.file("s.sqlite"), "SELECT id || '|' || code FROM families LIMIT 1"])
        let parts = row.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").map(String.init)
        try #require(parts.count == 2)
        let (id, oldCode) = (parts[0], parts[1])
        var byUser = try #require(await first.remoteFamilies().first { $0.recordName == id })
        byUser.created = .init(timestamp: 1_700_000_000_000, userRecordName: "_0123456789abcdef0123456789abcdef")
        byUser.recordChangeTag = nil
        let userContainer = try await EmulatorFixture.start(try .templateContainer())
        await userContainer.emulator.seed([byUser], container: container)
        let newCode = String(oldCode.reversed())
        try #require(newCode != oldCode)
        for statement in ["UPDATE families SET code = '\(newCode)' WHERE id = '\(id)'",
                          "INSERT INTO code_repairs (family_id, old_code, new_code, kept_by, reason, at) VALUES ('\(id)', '\(oldCode)', '\(newCode)', 'other', 'duplicate', '2026-01-01T00:00:00Z')",
                          "UPDATE families SET needs_sync = 1", "UPDATE user_profiles SET needs_sync = 1", "UPDATE memberships SET needs_sync = 1"] {
            _ = try first.sqlite(statement)
        }
        return (Workspace(directory: first.directory, fixture: userContainer), id, oldCode, { Task { await userContainer.emulator.stop() } })
    }
}
