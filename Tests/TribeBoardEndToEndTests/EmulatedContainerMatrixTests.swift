import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// The combinations EmulatedContainerTests does not cover on its own:
/// each emulator mode against each of provision --sync, resync, the live audit and doctor, with
/// the exit status, the fix named (JSON fields where there are some), nothing lost and nothing
/// uploaded twice.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct EmulatedContainerMatrixTests {
    let base = EmulatedContainerTests()
    static let families = EmulatedContainerTests.families

    /// A container whose schema stops the toolkit, and what every command must then say.
    struct SchemaMode: Sendable, CustomTestStringConvertible {
        let name: String
        let setUp: @Sendable () throws -> (CloudKitEmulator.Options, environment: String)
        let provision: Int32, resync: Int32, audit: Int32
        /// Text of the fix that every refusing command prints, and the doctor check that fails with it.
        let fix: String
        let failingCheck: String
        var testDescription: String { name }
    }

    static let schemaModes: [SchemaMode] = [
        SchemaMode(name: "code not queryable", setUp: {
            (.enforcing(development: try EmulatedContainerTests.template(replacing: "code            STRING QUERYABLE", with: "code            STRING")), "development")
        }, provision: 78, resync: 78, audit: 0, fix: "Schema > Indexes > Family", failingCheck: "remote.schema.Family.code"),
        SchemaMode(name: "___recordID not queryable", setUp: {
            (.enforcing(development: try EmulatedContainerTests.template(replacing: "\"___recordID\"   REFERENCE QUERYABLE,\n        code", with: "code")),
             "development")
        }, provision: 0, resync: 0, audit: 78, fix: "Schema > Indexes > Family", failingCheck: "remote.schema.Family.recordID"),
        SchemaMode(name: "production without the deployed schema", setUp: {
            (.enforcing(development: try CloudKitEmulator.Options.templateSchema()), "production")
        }, provision: 78, resync: 78, audit: 78, fix: "cktool import-schema", failingCheck: "remote.schema.Family.code"),
        SchemaMode(name: "fresh empty development container", setUp: {
            (.enforcing(development: .empty), "development")
        }, provision: 78, resync: 78, audit: 78, fix: "cktool import-schema", failingCheck: "remote.schema.Family.code"),
    ]

    @Test(arguments: schemaModes)
    func aSchemaProblemStopsEachCommandNamingItsFix(_ mode: SchemaMode) async throws {
        let (options, environment) = try mode.setUp()
        let space = try await base.workspace(options, environment: environment)
        defer { Task { await space.fixture.emulator.stop() } }
        let provision = try await space.provision()
        #expect(provision.status == mode.provision, "\(provision.stderr)")
        if mode.provision == 78 {
            let remote = try provision.report(ProvisionReportMirror.self).remote
            #expect(remote?.errorKind == "configuration", "\(provision.stdout)")
            #expect(remote?.stopKind?.hasPrefix("cloudkit.schema.") == true,
                    "\(provision.stdout)")
            #expect(provision.stderr.contains(mode.fix), "\(provision.stderr)")
        }
        let resync = try await space.run(["resync"])
        #expect(resync.status == mode.resync, "\(resync.stderr)")
        if mode.resync == 78 {
            let resyncReport = try resync.report(ResyncReportMirror.self)
            #expect(resyncReport.exitKind == "configuration", "\(resync.stdout)")
            #expect(resyncReport.stopKind?.hasPrefix("cloudkit.schema.") == true, "\(resync.stdout)")
            #expect(resync.stderr.contains(mode.fix), "\(resync.stderr)")
        }
        let audit = try await space.run(["audit"])
        #expect(audit.status == mode.audit, "\(audit.stderr)")
        if mode.audit == 78 {
            let error = try ErrorDocument(audit)
            #expect(error.kind.hasPrefix("cloudkit.schema.") && error.category == "configuration", "\(error)")
            // The family types are read side by side: whichever answers first names the missing index.
            #expect(["Family", "CKFamily"].contains(error.recordType ?? ""), "\(error)")
            #expect(error.message.contains("Schema >") || error.message.contains("cktool"), "the message names the fix: \(error.message)")
        }
        let checks = try await space.doctorSchemaChecks()
        #expect(checks[mode.failingCheck]?.status == "failure", "\(checks)")
        #expect(checks[mode.failingCheck]?.found.contains(mode.fix) == true, "\(checks)")
        // Nothing lost: every family is in the store; what went up went up once, the rest waits.
        #expect(try space.localFamilies == Self.families)
        let remote = await space.remoteFamilies()
        // Names are unique in any container: a family sent twice would show as its code twice.
        #expect(Set(remote.compactMap { $0.string("code") }).count == remote.count)
        #expect(try remote.count + space.pendingFamilies == Self.families)
    }

    /// Modes where the container works (or comes back): everything ends up uploaded once.
    enum WorkingMode: String, CaseIterable, Sendable {
        case productionDeployed, bare503, conflictOnRepeatedCreate
    }

    @Test(arguments: WorkingMode.allCases)
    func aWorkingContainerEndsWithEverythingUploadedOnceAndAHealthyDoctor(_ mode: WorkingMode) async throws {
        var options = try CloudKitEmulator.Options.templateContainer()
        if mode == .conflictOnRepeatedCreate { options.conflictOnRepeatedCreate = true }
        if mode == .bare503 { options.faults = try EmulatorFaults.parse("503-bare=1,retry-after=3600") }
        let space = try await base.workspace(options, environment: mode == .productionDeployed ? "production" : "development")
        defer { Task { await space.fixture.emulator.stop() } }
        let provision = try await space.provision()
        #expect(provision.status == (mode == .bare503 ? 75 : 0), "\(provision.stderr)")
        if mode == .bare503 {
            // The container is busy: every command says try later, and doctor fails the remote check.
            let remote = try provision.report(ProvisionReportMirror.self).remote
            #expect(remote?.errorKind == "transient" || remote?.errorKind == "network", "\(provision.stdout)")
            let resync = try await space.run(["resync"])
            #expect(try resync.status == 75 && resync.report(ResyncReportMirror.self).exitKind == "tryLater", "\(resync.stderr)")
            // doctor: a busy service is a warning to run it again later, not a failed check (0).
            let doctor = try await space.run(["doctor"])
            let remoteChecks = try doctor.report(DoctorReportMirror.self).checks.filter { $0.id.hasPrefix("remote.") }
            #expect(doctor.status == 0, "\(doctor.stdout)")
            #expect(remoteChecks.contains { $0.status == "warning" && $0.action?.contains("later") == true }, "\(remoteChecks)")
            #expect(!remoteChecks.contains { $0.status == "failure" }, "\(remoteChecks)")
            await space.fixture.emulator.setFaults(EmulatorFaults())
        }
        if mode == .conflictOnRepeatedCreate {
            // As after a kill -9 between the upload and its bookkeeping.
            _ = try space.sqlite("UPDATE families SET needs_sync = 1")
            _ = try space.sqlite("UPDATE memberships SET needs_sync = 1")
        }
        let resync = try await space.run(["resync"])
        #expect(resync.status == 0, "\(resync.stderr)")
        let resyncReport = try resync.report(ResyncReportMirror.self)
        #expect(resyncReport.quarantined == 0 && resyncReport.conflicts == 0, "\(resync.stdout)")
        let audit = try await space.run(["audit"])
        #expect(audit.status == 0, "\(audit.stderr)")
        let checks = try await space.doctorSchemaChecks()
        #expect(!checks.isEmpty && checks.values.allSatisfy { $0.status == "ok" }, "\(checks)")
        #expect(try space.pendingFamilies == 0 && space.localFamilies == Self.families)
        let remote = await space.remoteFamilies()
        #expect(remote.count == Self.families && Set(remote.compactMap { $0.string("code") }).count == Self.families, "every family once")
    }

    /// 30 % faults and a kill -9 of `provision --sync` mid-upload; the same command again, then
    /// resync until done: every family once, the live audit clean, doctor's schema checks fine.
    @Test func thirtyPercentFaultsAndAKilledProvisionSyncStillEndWithEveryFamilyOnce() async throws {
        var options = try CloudKitEmulator.Options.templateContainer()
        options.faults = try EmulatorFaults.parse("503=0.1,503-bare=0.05,429=0.05,retry-after=0.05,500=0.05,drop=0.05,latency=5ms,seed=21")
        let space = try await base.workspace(options)
        defer { Task { await space.fixture.emulator.stop() } }
        let count = 400
        try space.directory.write("in.csv", CSVFixtures.families(count: count))
        let victim = try ProcessRunner.start(ProcessRunner.executable("tribeboard"),
                                             ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--sync", "-q"]
                                                 + space.fixture.remoteArguments, in: space.directory.path)
        for _ in 0..<1000 where await space.remoteFamilies().isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        victim.killHard()
        _ = victim.wait()
        var status: Int32 = -1
        for _ in 0..<10 where status != 0 && status != 75 { status = try await space.provision().status }
        #expect(status == 0 || status == 75, "provision again: done, or records wait for resync")
        #expect(try space.localFamilies == count, "one family per row")
        for _ in 0..<10 where try space.pendingFamilies > 0 || status != 0 {
            _ = try space.sqlite("UPDATE sync_state SET next_attempt_at = '2000-01-01T00:00:00.000Z'")
            status = try await space.run(["resync"]).status
        }
        #expect(status == 0)
        #expect(try space.pendingFamilies == 0 && space.sqlite("SELECT count(*) FROM sync_state") == 0)
        let remote = await space.remoteFamilies()
        #expect(remote.count == count && Set(remote.compactMap { $0.string("code") }).count == count, "every family once, each code once")
        let codes = Dictionary(uniqueKeysWithValues: remote.compactMap { family in family.string("code").map { (family.recordName, $0) } })
        #expect(try await space.fixture.emulator.claimsMatch(codes, container: CloudKitConfiguration.defaultContainer,
                                                                     environment: space.environment),
                "each code claimed once, by its family: the killed provision's claims were found as its own")
        var audit: Int32 = -1
        for _ in 0..<3 where audit != 0 { audit = try await space.run(["audit"]).status }
        #expect(audit == 0, "the live audit finds every family once, each code once")
        // doctor under faults: a request that meets one is "not checked, run doctor again later"
        // (a warning, exit 0), never a failed check; once the faults stop, every check is fine.
        for _ in 0..<3 {
            let doctor = try await space.run(["doctor"])
            let remote = try doctor.report(DoctorReportMirror.self).checks.filter { $0.id.hasPrefix("remote.") }
            #expect(doctor.status == 0 && !remote.contains { $0.status == "failure" }, "\(remote)")
        }
        await space.fixture.emulator.setFaults(EmulatorFaults())
        let checks = try await space.doctorSchemaChecks()
        #expect(!checks.isEmpty && checks.values.allSatisfy { $0.status == "ok" }, "\(checks)")
    }
}
