import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardRemote
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// The advice doctor and audit print for support cases, run as printed from the state that
/// printed it. The advising run gets its remote from flags and the advice runs in a shell with
/// no TRIBEBOARD_CK_* variables: what reaches CloudKit carries its flags.
@Suite(.serialized) struct SupportAdviceAsPrintedTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    typealias Setup = SupportCaseTests.Case

    func run(_ arguments: [String], _ setup: Setup) async throws -> ProcessRunner.Result {
        try await SupportCaseTests().run(arguments, setup)
    }

    /// Families provisioned from `csv` and uploaded (the remote given as flags).
    func provisioned(_ csv: String, _ name: String) async throws -> Setup {
        try await SupportCaseTests().provisioned(csv, name: name)
    }

    func sqlite(_ setup: Setup, _ statement: String) throws {
        let result = try ProcessRunner.run("/usr/bin/sqlite3", [setup.directory.file("s.sqlite"), statement])
        try #require(result.status == 0, "\(result.stderr)")
    }

    @Test func doctorFamilysReuploadRunsAsPrintedAndTheFamilyIsBack() async throws {
        let setup = try await provisioned("external_id,family_name,admin_display_name\nG-1,Okafor,Ada Okafor\n", "advice-reupload")
        defer { Task { await setup.fixture.emulator.stop() } }
        let id = try #require(setup.families["G-1"])
        // Deleted in the Console.
        let deleted = try await setup.fixture.client().modify([CloudKitOperation(.forceDelete,
            CloudKitRecord(recordName: id, recordType: RecordMapping.familyType, fields: [:]))])
        try #require(deleted.count == 1)
        let doctor = try await run(["doctor", "family", id, "--json"], setup)
        let remote = try #require(try doctor.report(FamilyReportMirror.self).findings.first { $0.id == "family.remote" }, "\(doctor.stdout)")
        let steps = AsPrinted.commands(in: try #require(remote.action))
        // Mark it, upload it, then the audit that counts every such family: none left.
        #expect(steps.count == 3, "\(remote.action ?? "")")
        for step in steps {
            let result = try await AsPrinted.run(step, in: setup.directory.path)
            #expect(result.status == 0, "\(step): \(result.stdout) \(result.stderr)")
        }
        #expect(await setup.fixture.emulator.records(container: container).contains { $0.recordName == id }, "uploaded again")
    }

    @Test func doctorsUnfinishedCreationIsRemovedAsPrinted() async throws {
        let setup = try await provisioned("external_id,family_name\nH-1,Half\nW-2,Whole\n", "advice-remove")
        defer { Task { await setup.fixture.emulator.stop() } }
        let half = try #require(setup.families["H-1"])
        try sqlite(setup, "DELETE FROM creation_log WHERE family_id = '\(half)' AND state = 'completed'")
        let doctor = try await run(["doctor", "--json"], setup)
        let incomplete = try #require(try doctor.report(DoctorReportMirror.self).byID["creations.incomplete"], "\(doctor.stdout)")
        let steps = AsPrinted.commands(in: try #require(incomplete.action))
        let remove = try #require(steps.first { $0.hasPrefix("tribeboard remove ") }, "\(incomplete.action ?? "")")
        let removed = try await AsPrinted.run(remove + " --json", in: setup.directory.path, replacing: ["ID": half])
        #expect(removed.status == 0, "\(remove): \(removed.stderr)")
        #expect(try removed.report(RemoveReportMirror.self).removed == 1)
        let look = try #require(steps.first { $0.hasPrefix("tribeboard doctor family ") })
        let gone = try await AsPrinted.run(look + " --json", in: setup.directory.path, replacing: ["ID": half])
        #expect(try gone.report(FamilyReportMirror.self).family == nil, "\(look): the family is gone")
    }

    @Test func theAuditsNoAdminFindingLeadsToDoctorFamilyAsPrinted() async throws {
        let setup = try await provisioned("external_id,family_name\nN-1,Nobody\n", "advice-no-admin")
        defer { Task { await setup.fixture.emulator.stop() } }
        let audit = try await run(["audit", "--json"], setup)
        let finding = try #require(try audit.report(AuditReportMirror.self).findings.first { $0.category == "no-parent-admin" },
                                   "\(audit.stdout)")
        let look = try #require(AsPrinted.commands(in: finding.action).first, "\(finding.action)")
        let doctor = try await AsPrinted.run(look + " --json", in: setup.directory.path)
        let report = try doctor.report(FamilyReportMirror.self)
        #expect(report.family?.adminState == "none" && report.findings.first { $0.id == "family.admin" }?.status == "warning",
                "\(look): \(doctor.stdout)")
        #expect(report.findings.contains { $0.id == "family.remote" && $0.status == "ok" }, "CloudKit consulted: \(doctor.stdout)")
    }
}
