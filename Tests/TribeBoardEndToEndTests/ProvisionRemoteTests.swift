import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport
import TribeBoardRemote

/// `tribeboard provision` with CloudKit: the real binary against the loopback emulator.
@Suite struct ProvisionRemoteTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let sampleCSV = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Templates/families.csv").standardized.path
    let container = CloudKitConfiguration.defaultContainer

    func provision(_ fixture: EmulatorFixture, in directory: TemporaryDirectory, _ extra: [String] = [],
                   keyID: String? = nil, baseURL: String? = nil) async throws -> ProcessRunner.Result {
        var remote = fixture.remoteArguments
        if let keyID { remote[1] = keyID }
        if let baseURL { remote[5] = baseURL }
        return try await ProcessRunner.runAsync(tribeboard, ["provision", sampleCSV, "--store", "s.sqlite", "--out", "out", "--json"] + remote + extra,
                                                in: directory.path)
    }

    func summary(_ result: ProcessRunner.Result) throws -> ProvisionReportMirror {
        try result.report(ProvisionReportMirror.self)
    }

    /// The keys `remote` holds: a stop that did not happen is left out of the report.
    func remoteKeys(_ result: ProcessRunner.Result) throws -> Set<String> {
        try #require(try result.report(JSONKeys.self).objects["remote"], "\(result.stdout)").keys
    }

    @Test func cleanRunChecksEveryCodeAndSyncUploadsTheAppsRecords() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("remote-clean")
        let result = try await provision(fixture, in: directory, ["--sync"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try summary(result)
        #expect(json.codesVerifiedRemotely == 42)
        #expect(json.codesNotVerifiedRemotely == 0)

        let remote = await fixture.emulator.records(container: container)
        #expect(remote.filter { $0.recordType == "Family" }.count == 42)
        // 41 admins, 6 of them with an Apple user id hash: only those go up (the app's decoder
        // needs the hash); the 35 invited ones stay local until they activate through the join kit.
        #expect(remote.filter { $0.recordType == "UserProfile" }.count == 6)
        #expect(remote.filter { $0.recordType == "Membership" }.count == 6)
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        let local = try #require(try store.rows("SELECT id, code, name FROM families WHERE import_key = 'ext:TB-0001'").first)
        let record = try #require(remote.first { $0.recordName == local["id"] })
        #expect(record.fields?["code"] == .string(try #require(local["code"])))
        #expect(record.fields?["name"] == .string("Müller"))
        #expect(record.fields?["createdAt"]?.type == "TIMESTAMP")
        let membership = try #require(remote.first { $0.recordType == "Membership" && $0.fields?["family"]?.value.object?["recordName"] == .string(local["id"] ?? "") })
        #expect(membership.fields?["family"]?.value.object?["action"] == .string("DELETE_SELF"))
        #expect(try store.count("SELECT COUNT(*) FROM families WHERE needs_sync = 1 OR code_verified_remotely_at IS NULL") == 0)
    }

    /// The sample's 35 admins invited without a hash (of 41 admins for 42 families): their
    /// families are in CloudKit without an admin until each person joins, which every command
    /// reports as waiting, not as a fault; only the one family without any admin is a finding.
    @Test func familiesAwaitingTheirInvitedAdminAreReportedAsSuch() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("remote-awaiting")
        #expect(try await provision(fixture, in: directory, ["--sync"]).status == 0)
        let store = ["--store", "s.sqlite"]
        let resync = try await ProcessRunner.runAsync(tribeboard, ["resync", "--json"] + store + fixture.remoteArguments, in: directory.path)
        #expect(resync.status == 0, "\(resync.stderr)")
        let resyncReport = try resync.report(ResyncReportMirror.self)
        #expect(resyncReport.awaitingInvitedAdmin == 35 && resyncReport.exitKind == "success")
        let audit = try await ProcessRunner.runAsync(tribeboard, ["audit", "--json"] + store + fixture.remoteArguments, in: directory.path)
        let auditReport = try audit.report(AuditReportMirror.self)
        #expect(auditReport.awaitingInvitedAdmin == 35)
        // The sample's one family without any admin row is the only one without an admin.
        #expect(auditReport.counts["no-parent-admin"] == 1, "\(auditReport.findings.map(\.message))")
        let doctor = try await ProcessRunner.runAsync(tribeboard, ["doctor", "--json"] + store, in: directory.path)
        let checks = try doctor.report(DoctorReportMirror.self).byID
        #expect(checks["creations.awaitingAdmin"]?.count == 35 && checks["creations.awaitingAdmin"]?.status == "ok")
        #expect(checks["creations.parentAdmin"]?.count == 1 && checks["creations.parentAdmin"]?.status == "warning")
    }

    @Test(arguments: ["503=0.3,seed=3", "429=0.3,retry-after=0.2,seed=4", "500=0.3,seed=5", "drop=0.3,seed=6", "latency=30ms"])
    func eachFaultModeStillEndsWithEverythingCreatedAndUploaded(faults: String) async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse(faults)
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("remote-faults")
        let result = try await provision(fixture, in: directory, ["--sync"])
        // With 30 % of requests failing, the bounded retries can run out: then the run says "try
        // later" (75) with everything created locally, and the next resync finishes, as cron would.
        #expect(result.status == 0 || result.status == 75, "\(faults): \(result.stderr)")
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families") == 42)
        var status = result.status
        for _ in 0..<5 where status != 0 {
            status = try await ProcessRunner.runAsync(tribeboard, ["resync", "--store", "s.sqlite"] + fixture.remoteArguments,
                                                      in: directory.path).status
        }
        #expect(status == 0)
        #expect(await fixture.emulator.records(container: container).filter { $0.recordType == "Family" }.count == 42)
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        #expect(try store.count("SELECT COUNT(*) FROM families WHERE needs_sync = 0") == 42)
    }

    @Test func remoteDownGoesOnLocallyMarksCodesUnverifiedAndExits75() async throws {
        let fixture = try await EmulatorFixture.start()
        await fixture.emulator.stop()
        let directory = try TemporaryDirectory("remote-down")
        let result = try await provision(fixture, in: directory, ["--sync"])
        #expect(result.status == 75, "\(result.stderr)")
        let json = try summary(result)
        #expect(json.created == 42)
        #expect(json.codesNotVerifiedRemotely == 42)
        let remote = try #require(json.remote)
        #expect(remote.errorKind == "network")
        // The check and the upload both stopped on the lost network, which the report names.
        #expect(remote.stopKind == "cloudkit.network" && remote.unavailable != nil, "\(remote)")
        #expect(try !remoteKeys(result).contains("uploadStopKind"), "no upload was tried once the check stopped: \(remote)")
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        #expect(try store.count("SELECT COUNT(*) FROM families WHERE code_verified_remotely_at IS NULL AND needs_sync = 1") == 42)
    }

    /// --sync while another resync holds the store's lock: the records wait, and the report says
    /// why as the error document would (`lock.held`).
    @Test func aSyncWhileAnotherResyncRunsNamesTheLock() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("remote-sync-locked")
        let lock = open(directory.file("s.sqlite.resync-lock"), O_RDWR | O_CREAT, 0o600)
        defer { close(lock) }
        try #require(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        let result = try await provision(fixture, in: directory, ["--sync"])
        let remote = try #require(try summary(result).remote, "\(result.stdout)")
        #expect(remote.uploadStopKind == "lock.held" && remote.uploadError != nil, "\(remote)")
        #expect(try !remoteKeys(result).contains("stopKind"), "the check itself went through: \(remote)")
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families WHERE needs_sync = 1") == 42)
        #expect(result.status == 75 && remote.uploadOutcome == "tryLater", "records left waiting are not a success: \(result.stderr)")
    }

    /// A lock file that cannot be used is an I/O fault, as resync says (74), not "try later" (75),
    /// which cron would retry for ever.
    @Test func anUnusableResyncLockIsAnIOError() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("remote-sync-lock-folder")
        try FileManager.default.createDirectory(atPath: directory.file("s.sqlite.resync-lock"), withIntermediateDirectories: false)
        let result = try await provision(fixture, in: directory, ["--sync"])
        #expect(result.status == 74, "\(result.stderr)")
        let error = try ErrorDocument(result)
        #expect(error.kind == "lock.cannotOpen", "\(error)")
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families WHERE needs_sync = 1") == 42)
    }

    @Test func wrongKeyIsAClearConfigurationErrorAndNothingIsLostLocally() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("remote-wrong-key")
        let result = try await provision(fixture, in: directory, [], keyID: "never-registered")
        #expect(result.status == 78, "\(result.stderr)")
        // The remote check stopped, the local work is done: the report is the run's document.
        let remote = try #require(try summary(result).remote)
        #expect(remote.errorKind == "configuration", "\(result.stdout)")
        #expect(remote.stopKind == "cloudkit.service", "\(result.stdout)")
        #expect(remote.unavailable?.contains("AUTHENTICATION_FAILED") == true, "Apple's code, in the report: \(result.stdout)")
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families") == 42)
        #expect(await fixture.emulator.requestCounts()["records/query"] == 1, "a configuration error is not retried, and stops remote checks")
    }

    @Test func aCodeAlreadyTakenInCloudKitFailsItsPreassignedRow() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let holder = RecordMapping.family(id: "0190A1B2-C3D4-7E5F-8123-456789ABCDEF", name: "Remote Family", code: "HJK4MN",
                                          createdByUserId: "0190A1B2-C3D4-7E5F-8123-456789ABCDE0", createdAt: .now)
        await fixture.emulator.seed([holder], container: container)
        let directory = try TemporaryDirectory("remote-taken")
        let result = try await provision(fixture, in: directory)
        #expect(result.status == 1, "\(result.stderr)")
        let row = try #require(try ManifestFile.read(directory.file("out/manifest.csv")).first { $0.externalId == "TB-0036" })
        #expect(row.status == "failed")
        #expect(row.error.contains("in CloudKit") && row.error.contains(holder.recordName))
    }

    @Test func badKeyFilePermissionsAreRefusedBeforeAnythingIsWritten() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        chmod(fixture.keyFile, 0o644)
        let directory = try TemporaryDirectory("remote-perms")
        let result = try await provision(fixture, in: directory)
        #expect(result.status == 78)
        let error = try ErrorDocument(result)
        #expect(error.kind == "config.keyFilePermissions" && error.path == fixture.keyFile && error.mode == "644", "\(error)")
        #expect(error.message.contains("chmod 600"), "the message names the fix")
        #expect(!FileManager.default.fileExists(atPath: directory.file("s.sqlite")))
    }
}
